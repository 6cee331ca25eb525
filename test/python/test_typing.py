"""The package as Python users expect it: signatures, annotations, axis labels."""

import inspect
import re
import pathlib
import subprocess

import pytest

import drp
import drp.campaign
import drp.experiment
import drp.fabric
import drp.store
from drp.plots import axis_label, plot_cdf, plot_settings

ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    "function, config", [(drp.run, drp.Config), (drp.run_fabric, drp.FabricConfig)]
)
def test_run_functions_name_every_parameter_with_its_default(function, config):
    parameters = inspect.signature(function).parameters
    # The fields as set (to_dict() reads nic = "auto" back as the card it names).
    defaults = config()
    fields = {name: getattr(defaults, name) for name in defaults.to_dict()}
    # run_fabric: then where it runs (drp.Launch), no parameter of the experiment.
    launch = drp.fabric.LAUNCH_PARAMETERS if function is drp.run_fabric else {}
    assert list(parameters) == list(fields) + list(launch)
    fields.update(launch)
    for name, parameter in parameters.items():
        assert parameter.kind is inspect.Parameter.KEYWORD_ONLY, name
        assert parameter.annotation is not inspect.Parameter.empty, name
        default = {} if parameter.default is None and name == "defaults" else parameter.default
        assert default == fields[name] and type(default) is type(fields[name]), name
    # help() shows them.
    assert re.search(r"method: '?str'? = 'dynamic'", pydoc_text(function))


def pydoc_text(function):
    import pydoc

    return pydoc.render_doc(function, renderer=pydoc.plaintext)


@pytest.mark.parametrize("function", [drp.run, drp.run_fabric])
def test_unknown_or_positional_parameters_raise_type_error(function):
    with pytest.raises(TypeError, match="unknown parameter 'colour'; valid: "):
        function(colour="red")
    with pytest.raises(TypeError, match="keyword arguments only"):
        function("dynamic")


def test_explicit_parameters_run_what_they_ran_before():
    result = drp.run(transfers=3, size=4096, defaults={"ns3::DrpTransport::Window": "4"})
    assert result.params["defaults"] == {"ns3::DrpTransport::Window": "4"}
    assert result.params == drp.parameters(
        transfers=3, size=4096, defaults={"ns3::DrpTransport::Window": "4"}
    )
    fabric = drp.run_fabric(hosts=3, bytes=16384, host_rate="10Gbps", queue="50p")
    assert fabric.params == drp.fabric_parameters(
        hosts=3, bytes=16384, host_rate="10Gbps", queue="50p"
    )


def _public_callables(module):
    for name, value in vars(module).items():
        if name.startswith("_") or getattr(value, "__module__", None) != module.__name__:
            continue
        if inspect.isfunction(value):
            yield name, value
        elif inspect.isclass(value):
            for method_name, method in vars(value).items():
                if inspect.isfunction(method) and (
                    not method_name.startswith("_") or method_name == "__init__"
                ):
                    yield f"{name}.{method_name}", method
                elif isinstance(method, property) or hasattr(method, "func"):
                    function = getattr(method, "fget", None) or method.func
                    yield f"{name}.{method_name}", function


@pytest.mark.parametrize("module", [drp.experiment, drp.fabric, drp.campaign, drp.store])
def test_public_api_is_annotated(module):
    unannotated = []
    for name, function in _public_callables(module):
        hints = function.__annotations__
        parameters = [
            p for p in inspect.signature(function).parameters if p not in ("self", "cls")
        ]
        if "return" not in hints or any(p not in hints for p in parameters):
            unannotated.append(name)
    assert unannotated == []


def test_the_package_is_marked_typed():
    assert (pathlib.Path(drp.__file__).parent / "py.typed").is_file()
    assert (ROOT / "python" / "drp" / "py.typed").is_file()
    cmake = (ROOT / "python" / "CMakeLists.txt").read_text()
    assert "drp/py.typed" in cmake


def test_axis_labels_carry_names_and_units():
    assert axis_label("mean_fct_us") == "mean FCT (µs)"
    assert axis_label("mean_us") == "mean transfer time (µs)"
    assert axis_label("lfp") == "lost-frame probability"
    assert axis_label("ns3::DrpTransport::Window") == "Window"
    assert axis_label("p75_whatever_us") == "p75 whatever (µs)"


def test_plots_label_their_axes_with_names_and_units(tmp_path, monkeypatch):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import pandas as pd

    labels = []
    close = plt.close

    def keep_labels(fig=None):
        if hasattr(fig, "axes"):
            ax = fig.axes[0]
            labels.append((ax.get_xlabel(), ax.get_ylabel(), ax.get_title()))
        close(fig)

    monkeypatch.setattr(plt, "close", keep_labels)
    settings = pd.DataFrame(
        {"hosts": [3, 5], "method": ["dynamic"] * 2, "mean_fct_us": [310.0, 590.0],
         "ci95_fct_us": [3.0, 1.0], "p99_slowdown": [1.8, 3.4]}
    )
    table = plot_settings(settings, "hosts", "mean_fct_us", tmp_path / "a.png", by=["method"])
    assert table["ci95"].tolist() == [3.0, 1.0]
    plot_settings(settings, "hosts", "p99_slowdown", tmp_path / "b.png")
    transfers = pd.DataFrame({"status": ["success"] * 3, "fct_us": [1.0, 2.0, 3.0]})
    plot_cdf(transfers, tmp_path / "c.png", value="fct_us")
    assert labels == [
        ("hosts", "mean FCT (µs)", "mean FCT (µs) against hosts"),
        ("hosts", "99th-percentile slowdown", "99th-percentile slowdown against hosts"),
        ("FCT (µs)", "share of transfers at or below", "CDF of the FCT (µs)"),
    ]


def test_the_package_passes_mypy(tmp_path):
    """Debian's mypy over the package as built (its _build.py, the stub of the
    compiled extension), with python/mypy.ini: no error."""
    package = pathlib.Path(drp.__file__).resolve().parent
    assert (package / "py.typed").exists() and (package / "_drp.pyi").exists()
    checked = subprocess.run(
        ["/usr/bin/python3", "-m", "mypy", "--config-file", str(ROOT / "python" / "mypy.ini"),
         "--cache-dir", str(tmp_path / "cache"), str(package)],
        capture_output=True, text=True, cwd=tmp_path,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "Success: no issues found" in checked.stdout
