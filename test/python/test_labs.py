"""The lab handouts (doc/labs/lab*.md) do not rot.

Every command a handout shows in its ``sh`` blocks is listed here, in order,
and runs here (at reduced sizes where a full run is long: REDUCED), in a
folder of its own with ``$DRP`` pointing at this source tree and its build;
then the test checks what the handout tells students they should see. A
command changed in a handout and not here fails
``test_every_command_is_tested``.
"""

import os
import pathlib
import re
import subprocess

import pandas as pd
import pytest

import drp

ROOT = pathlib.Path(__file__).resolve().parents[2]
LABS = ROOT / "doc" / "labs"
#: The build tree that holds the package under test (<build>/python/drp).
BUILD = pathlib.Path(drp.__file__).resolve().parents[2]

#: Lines of a handout's set-up that the test provides itself.
SETUP = re.compile(r"^(export DRP=~/drp|mkdir -p ~/drp-labs/lab\d+ && cd ~/drp-labs/lab\d+)$")


def handout(number):
    """Return the path of lab ``number``'s handout."""
    (path,) = LABS.glob(f"lab{number}-*.md")
    return path


def commands(path):
    """Return the commands of the ``sh`` blocks of ``path``, in order, set-up included."""
    found = []
    for block in re.findall(r"```sh\n(.*?)```", path.read_text(), re.S):
        for line in block.replace("\\\n", " ").splitlines():
            line = line.strip()
            if line and not line.startswith("#"):
                found.append(" ".join(line.split()))
    return found


#: Every command of every handout, in order, after the set-up lines.
RF = "$DRP/build/examples/rnic-first"
FABRIC = "$DRP/build/examples/rnic-fabric"

TS = "tshark -X lua_script:$DRP/contrib/drp/wireshark/drp.lua -r"
CONTROL = """'drp.type != "DATA" && drp.type != "ACK"'"""
FIELDS = "-T fields -e frame.time_relative -e eth.src -e drp.type -e drp.status.reply"

EXPECTED = {
    1: [
        f"{RF} --method=traditional --transfers=1 --failRegistrations=1 --pcap=rnic-first",
        "mv rnic-first-0-0.pcap traditional.pcap",
        f"{RF} --method=dynamic --transfers=1 --failRegistrations=1 --pcap=rnic-first",
        "mv rnic-first-0-0.pcap dynamic.pcap",
        f"{TS} traditional.pcap -Y {CONTROL}",
        f"""{TS} dynamic.pcap -Y 'drp.type != "ACK" && frame.number <= 30'""",
        f"{TS} dynamic.pcap -Y 'drp.ctrl.indirect == 1'",
        f"{TS} dynamic.pcap -V -Y 'drp.ctrl.indirect == 1 && drp.sn == 0'",
        f"{TS} traditional.pcap -Y {CONTROL} {FIELDS}",
        f"{TS} dynamic.pcap -Y {CONTROL} {FIELDS}",
        f"{TS} dynamic.pcap -q -z expert",
    ],
    2: [
        f"{RF} --PrintAttributes=ns3::DrpTransport",
        f"{RF} --transfers=1 --frp=0",
        f"{RF} --transfers=1 --frp=0 --dropAtResponder=0",
        f"{RF} --transfers=1 --frp=0 --dropAtInitiator=0",
        f"{RF} --transfers=1 --frp=0 --dropAtResponder=32",
        f"{RF} --transfers=1 --frp=0 --dropAtResponder=64",
        f"{RF} --transfers=1 --frp=0 --dropAtInitiator=20",
        f"{RF} --transfers=1 --frp=0 --dropAtInitiator=64",
        f"{RF} --transfers=1 --frp=0 --dropAtResponder=65",
        f"{RF} --transfers=1 --method=traditional --failRegistrations=1",
        f"{RF} --transfers=1 --method=dynamic --failRegistrations=1",
    ],
    3: [
        "$DRP/scripts/drp-campaign run lab3.db -p method=traditional,dynamic -p frp=0,0.3,0.6"
        " -p transfers=100 -d ns3::IndirectBuffer::Capacity=8192,16384,32768,49152,131072",
        "$DRP/scripts/drp-campaign plot lab3.db --x ns3::IndirectBuffer::Capacity --y mean_us"
        " --by method --by frp --logx -o lab3-time.png",
        "$DRP/scripts/drp-campaign plot lab3.db --x ns3::IndirectBuffer::Capacity"
        " --y buffer_overflows --by frp --where method=dynamic --logx -o lab3-overflows.png",
        "$DRP/scripts/drp-campaign plot lab3.db --cdf --by method --where frp=0.6"
        " --where ns3::IndirectBuffer::Capacity=16384 -o lab3-cdf.png",
    ],
    4: [
        "$DRP/scripts/drp-campaign run lab4.db -p method=traditional,dynamic"
        " -p loss_model=rate,burst -p lfp=0.01,0.05,0.1 -p frp=0.05 -p transfers=200 -r 5",
        "$DRP/scripts/drp-campaign plot lab4.db --x lfp --y mean_us --by loss_model"
        " --by method -o lab4-means.png",
        "$DRP/scripts/drp-campaign plot lab4.db --cdf --by loss_model --where lfp=0.05"
        " --where method=traditional --logx -o lab4-cdf.png",
        "$DRP/scripts/drp-campaign show lab4.db --csv lab4-transfers.csv",
    ],
    5: [
        f"{FABRIC} --hosts=3",
        f"{FABRIC} --hosts=9",
        f"{FABRIC} --hosts=9 --queue=8p",
        f"{FABRIC} --hosts=9 --queue=32p",
        f"{FABRIC} --hosts=9 --queue=1000p",
        f"{FABRIC} --hosts=9 --queue=1000p --ns3::DrpTransport::RetransmissionTimeout=1ms",
        f"{FABRIC} --hosts=17 --frp=0.2 --method=traditional",
        f"{FABRIC} --hosts=17 --frp=0.2 --method=dynamic",
    ],
}

RPC = "$DRP/build/examples/rdma-cm-rpc --method=roce --calls=4 --size=4096 --reply=64"
EXPECTED[6] = [
    f"{RPC} --pcap=rpc",
    "tshark -r rpc-0-0.pcap",
    f"{RPC} --dropAtServer=2 --pcap=lost",
    "tshark -r lost-0-0.pcap -Y 'frame.number >= 3 && frame.number <= 14'",
    f"{RPC} --dropAtServer=5",
    f"{RPC} --lateReceive=1ms --pcap=late",
    "tshark -r late-0-0.pcap -Y 'infiniband.aeth.syndrome.opcode == 1'",
]

#: Per lab, (text, replacement) applied to its commands before they run here.
REDUCED = {}


@pytest.fixture(scope="module")
def drp_root(tmp_path_factory):
    """A stand-in for the student's ``$DRP``: this tree's scripts and contrib, and its build."""
    root = tmp_path_factory.mktemp("drp")
    for name in ("scripts", "contrib", "doc"):
        (root / name).symlink_to(ROOT / name)
    (root / "build").symlink_to(BUILD)
    return root


def run_lab(number, drp_root, tmp_path):
    """Run lab ``number``'s commands in ``tmp_path``; return their outputs in order."""
    env = dict(os.environ, DRP=str(drp_root), MPLBACKEND="Agg")
    outputs = []
    for command in commands(handout(number)):
        if SETUP.match(command):
            continue
        for text, replacement in REDUCED.get(number, []):
            command = command.replace(text, replacement)
        done = subprocess.run(
            ["bash", "-c", command],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=900,
        )
        assert done.returncode == 0, f"{command}\n{done.stdout}\n{done.stderr}"
        outputs.append(done.stdout)
    return outputs


@pytest.mark.parametrize("number", sorted(EXPECTED))
def test_every_command_is_tested(number):
    shown = commands(handout(number))
    setup = [c for c in shown if SETUP.match(c)]
    assert len(setup) == 2, f"lab {number}: the two set-up lines (export DRP, mkdir && cd)"
    assert [c for c in shown if not SETUP.match(c)] == EXPECTED[number]


def test_every_handout_is_listed():
    numbers = sorted(int(re.match(r"lab(\d+)-", p.name).group(1)) for p in LABS.glob("lab*-*.md"))
    assert numbers == sorted(EXPECTED)
    index = (LABS / "README.md").read_text()
    for number in numbers:
        assert handout(number).name in index, f"the index links lab {number}"
    assert (LABS / "answers.md").exists()


def key_section(number):
    """Return the section of the answer key (answers.md) on lab ``number``."""
    text = (LABS / "answers.md").read_text()
    (section,) = re.findall(rf"^## Lab {number}:.*?(?=^## |\Z)", text, re.S | re.M)
    return section


def key_text(number):
    """Return the answer key's section on lab ``number``, every run of white space one space."""
    return " ".join(key_section(number).split())


def key_table(number):
    """Return the rows of the tables in the answer key's section on lab ``number``, as lists of
    cells (stripped), header and rule rows left out."""
    rows, in_table = [], False
    for line in key_section(number).splitlines():
        if not line.startswith("|"):
            in_table = False
        elif re.fullmatch(r"\|(\s*:?-+:?\s*\|)+", line.strip()):
            in_table = True
        elif in_table:
            rows.append([cell.strip() for cell in line.strip()[1:-1].split("|")])
    return rows


def test_key_table_parser():
    rows = key_table(5)
    assert rows[0][:2] == ["1", "`--hosts=3`"] and all(len(row) == 6 for row in rows)
    assert len(key_table(1)) == 7 and len(key_table(2)) == 7


def info(output):
    """Return the Info column of tshark's one-line summaries (after the length)."""
    return [re.sub(r"^.* DRP \d+ ", "", line) for line in output.splitlines() if " DRP " in line]


def fields(output):
    """Return tshark's -T fields rows as (time in µs, source, type, status)."""
    rows = []
    for line in output.splitlines():
        time, source, kind, status = line.split("\t")
        rows.append((round(float(time) * 1e6, 3), source, kind, int(status)))
    return rows


def test_lab1_handshake_on_the_wire(drp_root, tmp_path):
    outputs = run_lab(1, drp_root, tmp_path)
    assert "indirect" not in outputs[0] and "+2100.98us" in outputs[0]
    assert ", indirect, +584.818us" in outputs[2]
    # Step 3: the traditional handshake, the timer's 1.5 ms between the replies' requests.
    assert info(outputs[4]) == [
        "REQ tid=1 len=65536",
        "REQ_ACK tid=1 invalid",
        "REQ tid=1 len=65536",
        "REQ_ACK tid=1 valid",
        "REL tid=1",
        "REL_ACK tid=1",
    ]
    # Step 4: the dynamic RNIC asks again and sends indirect data at once.
    lines = info(outputs[5])
    assert lines[:4] == [
        "REQ tid=1 len=65536",
        "REQ_ACK tid=1 invalid",
        "REQ tid=1 len=65536",
        "DATA tid=1 sn=0 indirect",
    ]
    assert "REQ_ACK tid=1 valid" in lines and "DATA tid=1 sn=9" in lines
    # Step 5: the indirect frames, SN 0 up.
    indirect = info(outputs[6])
    assert indirect == [f"DATA tid=1 sn={sn} indirect" for sn in range(len(indirect))]
    assert 1 <= len(indirect) <= 16
    # Step 6: every field decoded.
    for text in ("INDIRECT: indirect", "DATA: True", "Reply: valid (0)", "TID: 1",
                 "SBA: 0x0000000000000000", "DBA: 0x", "LEN: 1024", "SN: 0", "ACKN: 0"):
        assert text in outputs[7], text
    # Step 7: the tables for the diagrams.
    traditional, dynamic = fields(outputs[8]), fields(outputs[9])
    assert [(kind, status) for _, _, kind, status in traditional] == [
        ("REQ", 0), ("REQ_ACK", 1), ("REQ", 0), ("REQ_ACK", 0), ("REL", 0), ("REL_ACK", 0)]
    assert traditional[1][0] == 16 and traditional[2][0] == 1516
    assert 2090 < traditional[-1][0] < 2110
    assert [kind for _, _, kind, _ in dynamic] == ["REQ", "REQ_ACK", "REQ", "REQ_ACK", "REL", "REL_ACK"]
    assert dynamic[2][0] < 25 and 570 < dynamic[-1][0] < 600
    assert dynamic[0][1] == "00:00:00:00:00:01" and dynamic[1][1] == "00:00:00:00:00:02"
    # Step 8: nothing malformed, no errors.
    assert "Malformed" not in outputs[10] and "Error" not in outputs[10]
    # The answer key: the control frames' times (whole µs, as the captures keep them), and
    # the times rnic-first prints.
    rows = key_table(1)
    for column, captured in ((0, traditional), (2, dynamic)):
        control = [row for row in rows if not row[column + 1].startswith("DATA")]
        assert [(float(row[column]), row[column + 1].split()[0]) for row in control] == [
            (time, kind) for time, _, kind, _ in captured]
    (sn9,) = [row[2] for row in rows if row[3].startswith("DATA sn=9")]
    (line,) = [line for line in outputs[5].splitlines() if "DATA tid=1 sn=9" in line]
    assert float(sn9) == round(float(line.split()[1]) * 1e6, 3)
    times = [re.search(r"\+([0-9.]+)us", outputs[n]).group(1) for n in (0, 2)]
    assert f"`rnic-first` prints {times[0]} µs (traditional) and {times[1]} µs" in key_text(1)


def transfer(output):
    """Return (time in µs, the rest of the line) of rnic-first's one transfer."""
    (line,) = [line for line in output.splitlines() if line.startswith("transfer 0: ")]
    time = float(re.search(r"\+([0-9.]+)us", line).group(1))
    return time, line


def test_lab2_losing_one_frame(drp_root, tmp_path):
    outputs = run_lab(2, drp_root, tmp_path)
    for name in ("HandshakeTimeout=[+1.5e+06ns]", "RetransmissionTimeout=[+120000ns]",
                 "DupAckThreshold=[3]", "Window=[8]"):
        assert name in outputs[0], name
    t0, line = transfer(outputs[1])
    assert t0 == 584.818 and "0 retransmission(s), 0 timer expiry(ies)" in line
    extra = {}
    for case, output in zip("abcdefg", outputs[2:9]):
        time, line = transfer(output)
        extra[case] = (time - t0, line)
    slot = 8.752
    # (a), (b): one handshake timer; (b) saves the second registration.
    assert 1500 <= extra["a"][0] <= 1501 and "2 request(s)" in extra["a"][1]
    assert 1470 <= extra["b"][0] < extra["a"][0] and "1 timer expiry" in extra["b"][1]
    # (c): fast retransmit, no timer, less than two frame times.
    assert 0 < extra["c"][0] < 2 * slot
    assert "1 retransmission(s), 0 timer expiry(ies)" in extra["c"][1]
    # (d), (f), (g): about one RetransmissionTimeout, one expiry; (e) free.
    for case in "dfg":
        assert 120 <= extra[case][0] < 130, case
        assert "1 timer expiry(ies)" in extra[case][1], case
    assert extra["e"][0] == 0
    # Step 4: the traditional RNIC pays about a handshake timer, the dynamic one nothing.
    traditional, line = transfer(outputs[9])
    assert 1500 <= traditional - t0 < 1530 and "1 invalid reply(ies)" in line
    dynamic, line = transfer(outputs[10])
    assert dynamic == t0 and "indirect" in line
    # Question 5: an invalid reply that is lost costs both methods one timer.
    lost_reply = []
    for method in ("traditional", "dynamic"):
        done = subprocess.run(
            [str(BUILD / "examples" / "rnic-first"), "--transfers=1", f"--method={method}",
             "--failRegistrations=1", "--dropAtInitiator=0"],
            cwd=tmp_path, capture_output=True, text=True, check=True,
        )
        time, line = transfer(done.stdout)
        assert 1500 <= time - t0 <= 1501 and "direct" in line and "indirect" not in line
        lost_reply.append(time)
    # The answer key: measured extra and time per case, as printed (to 0.01 µs).
    rows = key_table(2)
    assert [row[0][:3] for row in rows] == [f"({case})" for case in "abcdefg"]
    for row, case in zip(rows, "abcdefg"):
        more = extra[case][0]
        assert row[3] == ("0" if more == 0 else f"{more:.2f} µs"), row[0]
        assert row[4] == f"{t0 + more:.2f} µs", row[0]
    text = key_text(2)
    assert lost_reply[0] == lost_reply[1]
    for quoted in (
        f"T0 = {t0:g} µs",
        f"the traditional RNIC takes {traditional:g} µs ({traditional - t0:.1f} µs extra",
        f"the dynamic RNIC takes {dynamic:g} µs",
        f"both take {lost_reply[0]:.2f} µs",
    ):
        assert quoted in text, quoted


def settings(store):
    """Return the store's settings, with the indirect-buffer capacity as a column."""
    with drp.Campaign(store, read_only=True) as campaign:
        frame = campaign.settings_dataframe()
    from drp.plots import column

    if frame["defaults"].str.contains("Capacity").any():
        frame["capacity"] = column(frame, "ns3::IndirectBuffer::Capacity")
    return frame


def test_lab3_registration_failure(drp_root, tmp_path):
    run_lab(3, drp_root, tmp_path)
    for name in ("lab3-time.png", "lab3-overflows.png", "lab3-cdf.png"):
        assert (tmp_path / name).stat().st_size > 10000, name
    s = settings(tmp_path / "lab3.db")
    assert len(s) == 30 and (s["successes"] == 100).all()
    # No failure: both methods take the lossless time at every capacity, nothing overflows.
    clean = s[s["frp"] == 0]
    assert clean["mean_us"].round(1).eq(1150.9).all()
    assert (clean["buffer_overflows"] == 0).all()
    traditional = s[s["method"] == "traditional"]
    dynamic = s[s["method"] == "dynamic"]
    # The traditional RNIC never uses the buffer: one mean per FRP, growing steeply.
    assert (traditional.groupby("frp")["mean_us"].nunique() == 1).all()
    by_frp = traditional.groupby("frp")["mean_us"].first()
    assert 1700 < by_frp[0.3] < 2200 and by_frp[0.6] > 3000
    assert (traditional["buffer_overflows"] == 0).all()
    for frp in (0.3, 0.6):
        d = dynamic[dynamic["frp"] == frp].sort_values("capacity")
        # Faster than the traditional RNIC at every capacity.
        assert (d["mean_us"] < by_frp[frp]).all()
        # Overflows fall as the buffer grows; none once it holds the whole transfer.
        assert d["buffer_overflows"].is_monotonic_decreasing
        whole = d[d["capacity"] == 131072].iloc[0]
        assert whole["buffer_overflows"] == 0 and whole["mean_us"] < 1152
        assert d[d["capacity"] == 8192].iloc[0]["buffer_overflows"] > 0
    # The answer key: the dynamic RNIC's table and the traditional RNIC's means, as measured.
    def interval(setting):
        return f"{setting['mean_us']:.1f} ± {setting['ci95_us']:.1f} µs"

    rows = key_table(3)
    assert [row[0] for row in rows] == ["8 KiB", "16 KiB", "32 KiB", "48 KiB", "128 KiB"]
    for row in rows:
        capacity = int(row[0].split()[0]) * 1024
        cells = []
        for frp in (0.3, 0.6):
            (setting,) = [x for _, x in dynamic.iterrows()
                          if x["frp"] == frp and x["capacity"] == capacity]
            cells += [interval(setting), str(setting["buffer_overflows"])]
        assert row[1:] == cells, row[0]
    first = {frp: traditional[traditional["frp"] == frp].iloc[0] for frp in (0, 0.3, 0.6)}
    means = {frp: f"{first[frp]['mean_us']:.1f}" for frp in first}
    text = key_text(3)
    for quoted in (
        f"Measured: {interval(first[0.3])} and {interval(first[0.6])}",
        f"The traditional RNIC: {means[0]}, {means[0.3]} and {means[0.6]} µs"
        " at FRP 0, 0.3 and 0.6",
        f"Without failures both methods take {clean['mean_us'].iloc[0]:.1f} µs",
    ):
        assert quoted in text, quoted


def test_lab4_loss_models(drp_root, tmp_path):
    outputs = run_lab(4, drp_root, tmp_path)
    for name in ("lab4-means.png", "lab4-cdf.png"):
        assert (tmp_path / name).stat().st_size > 10000, name
    s = settings(tmp_path / "lab4.db")
    assert len(s) == 12 and (s["runs"] == 5).all() and (s["n"] == 1000).all()
    key = s.set_index(["method", "loss_model", "lfp"])
    for method in ("traditional", "dynamic"):
        for lfp in (0.01, 0.05, 0.1):
            rate, burst = key.loc[(method, "rate", lfp)], key.loc[(method, "burst", lfp)]
            # The same average loss rate: frames lost within 5 %.
            assert abs(burst["frames_lost"] / rate["frames_lost"] - 1) < 0.05
        for lfp in (0.05, 0.1):
            rate, burst = key.loc[(method, "rate", lfp)], key.loc[(method, "burst", lfp)]
            assert burst["mean_us"] > rate["mean_us"] and burst["ci95_us"] > 2 * rate["ci95_us"]
        rate, burst = key.loc[(method, "rate", 0.1)], key.loc[(method, "burst", 0.1)]
        # About twice the mean at 10 %, intervals apart.
        assert burst["mean_us"] > 1.6 * rate["mean_us"]
        assert burst["mean_us"] - burst["ci95_us"] > rate["mean_us"] + rate["ci95_us"]
    # The CDF's table: burst median not longer, 99th percentile much longer.
    cdf = outputs[2]
    rows = {line.split()[0]: line.split() for line in cdf.splitlines() if "loss_model=" in line}
    burst, rate = rows["loss_model=burst"], rows["loss_model=rate"]
    assert float(burst[3]) <= float(rate[3])  # median
    assert float(burst[4]) > 1.5 * float(rate[4])  # p99
    # The exported transfers: more transfers without a timer expiry under bursts.
    t = pd.read_csv(tmp_path / "lab4-transfers.csv")
    t = t[(t["lfp"] == 0.05) & (t["method"] == "traditional")]
    calm = t.groupby("loss_model")["timeouts"].apply(lambda x: (x == 0).mean())
    assert calm["burst"] > calm["rate"]
    # The dynamic RNIC's saving in microseconds is similar, so smaller in percent under bursts.
    saved = {
        model: key.loc[("traditional", model, 0.1)]["mean_us"]
        - key.loc[("dynamic", model, 0.1)]["mean_us"]
        for model in ("rate", "burst")
    }
    percent = {
        model: 100 * saved[model] / key.loc[("traditional", model, 0.1)]["mean_us"]
        for model in saved
    }
    assert percent["burst"] < percent["rate"]
    # The answer key: the table of means, as measured, and the frames lost.
    table = key_table(4)
    assert len(table) == 6
    for row in table:
        lfp = int(row[0].split()[0]) / 100
        means = [key.loc[(row[1], model, lfp)] for model in ("rate", "burst")]
        cells = [f"{m['mean_us']:.1f} ± {m['ci95_us']:.1f} µs" for m in means]
        assert row[2:] == cells, row[:2]
    lost = {(method, model, lfp): key.loc[(method, model, lfp)]["frames_lost"]
            for method in ("traditional", "dynamic") for model in ("rate", "burst")
            for lfp in (0.01, 0.05, 0.1)}
    text = key_text(4)
    quoted = ("Frames lost by the dynamic RNIC: "
              + ", ".join(f"{lost['dynamic', 'rate', lfp]:,} and {lost['dynamic', 'burst', lfp]:,}"
                          f" at {lfp * 100:.0f} %" for lfp in (0.01, 0.05, 0.1))
              + " (rate, burst).")
    assert quoted in text, quoted
    other = [(model, lfp) for (method, model, lfp), count in lost.items()
             if method == "traditional" and count != lost["dynamic", model, lfp]]
    assert [f"{lost[('traditional', *setting)]:,} at {setting[1] * 100:.0f} % ({setting[0]})"
            for setting in other] == re.findall(
        r"The traditional RNIC meets the same losses but for one setting: ([^.]*)\.", text)
    # Question 1: how far the two models' counts are apart.
    gaps = [100 * abs(lost[method, "burst", lfp] / lost[method, "rate", lfp] - 1)
            for method in ("traditional", "dynamic") for lfp in (0.01, 0.05, 0.1)]
    # Question 2: the traditional RNIC's means and intervals at 10 %.
    rate, burst = key.loc[("traditional", "rate", 0.1)], key.loc[("traditional", "burst", 0.1)]
    # Question 3: the CDF's table (median, 99th percentile, slowest).
    cdf_row = {model: rows[f"loss_model={model}"] for model in ("burst", "rate")}
    # Question 4: transfers without a timer expiry, without a retransmission.
    def share(column):
        return (t.groupby("loss_model")[column].apply(lambda x: 100 * (x == 0).mean())
                .map("{:.1f}".format))

    timeouts, retransmissions = share("timeouts"), share("retransmissions")
    for quoted in (
        f"Yes, within {min(gaps):.1f} to {max(gaps):.1f} %",
        f"{burst['mean_us']:.0f} against {rate['mean_us']:.0f} µs for the traditional RNIC,"
        f" {burst['mean_us'] / rate['mean_us']:.1f} times; the intervals"
        f" ({burst['mean_us'] - burst['ci95_us']:.0f} to {burst['mean_us'] + burst['ci95_us']:.0f},"
        f" and {rate['mean_us'] - rate['ci95_us']:.0f} to {rate['mean_us'] + rate['ci95_us']:.0f})",
        f"median {float(cdf_row['burst'][3]):.1f} µs (burst) against"
        f" {float(cdf_row['rate'][3]):.1f} µs (rate), 99th percentile"
        f" {float(cdf_row['burst'][4]):.0f} against {float(cdf_row['rate'][4]):.0f} µs, slowest"
        f" {float(cdf_row['burst'][5]) / 1000:.1f} ms against"
        f" {float(cdf_row['rate'][5]) / 1000:.1f} ms",
        f"No timer expiry: {timeouts['burst']} % of the transfers under bursts,"
        f" {timeouts['rate']} % under independent losses; no retransmission at all:"
        f" {retransmissions['burst']} % against {retransmissions['rate']} %",
        # Question 5: the dynamic RNIC's saving at 10 %.
        f"{saved['burst']:.1f} µs saved of {burst['mean_us']:.1f} ({percent['burst']:.1f} %)"
        f" under bursts, {saved['rate']:.1f} µs of {rate['mean_us']:.1f}"
        f" ({percent['rate']:.1f} %) under independent losses",
    ):
        assert quoted in text, quoted


def fabric(output):
    """Return rnic-fabric's figures: FCT (mean, max) in µs, retransmissions, drops by port."""
    mean, maximum = map(float, re.search(r"mean ([0-9.]+), .* max ([0-9.]+)", output).groups())
    retransmissions = int(re.search(r"(\d+) retransmissions", output).group(1))
    drops = {int(port): int(count) for port, count in
             re.findall(r"switch 0 port (\d+): (\d+) frames dropped", output)}
    return mean, maximum, retransmissions, drops


def printed(output):
    """Return rnic-fabric's figures as the answer key's table writes them: FCT "mean / max" (µs),
    retransmissions, port 0's drops ("D of N", or "0") and its peak queue ("P frames", or "")."""
    mean, maximum = re.search(r"mean ([0-9.]+), .* max ([0-9.]+)", output).groups()
    retransmissions = re.search(r"(\d+) retransmissions", output).group(1)
    port = re.search(
        r"switch 0 port 0: (\d+) frames dropped of (\d+), peak queue (\d+) frames", output)
    dropped = f"{port[1]} of {port[2]}" if port else "0"
    peak = f"{port[3]} frames" if port else ""
    return [f"{mean} / {maximum}", retransmissions, dropped, peak]


def test_lab5_incast(drp_root, tmp_path):
    outputs = run_lab(5, drp_root, tmp_path)
    # The answer key: a table row per command, as printed.
    rows = key_table(5)
    assert len(rows) == len(EXPECTED[5])
    for row, command, output in zip(rows, EXPECTED[5], outputs):
        # The key shortens the command ("...", attribute names without their class).
        options = re.sub(r"--ns3::\w+::", "--", command).split()
        for option in row[1].strip("`").split():
            assert option == "..." or option in options, (row[1], command)
        assert row[2:] == printed(output), command
    # The figures its text quotes.
    figures = [printed(output) for output in outputs]
    mean = [figure[0].split(" / ")[0] for figure in figures]
    maximum = [figure[0].split(" / ")[1] for figure in figures]
    drops = [figure[2].split(" of ")[0] for figure in figures]
    indirect = re.search(r"(\d+) indirect", outputs[7]).group(1)
    text = key_text(5)
    for quoted in (
        f"and the release, {maximum[0]} µs.",
        f"There are {figures[1][1]} retransmissions for {drops[1]} drops",
        f"Smallest buffer fastest (max {maximum[2]} µs), largest slowest ({maximum[4]} µs)",
        f"({figures[4][1]} retransmissions, no loss)",
        f"No retransmission; max {maximum[5]} µs",
        f"(mean {mean[7]} against {mean[6]} µs in this run)",
        f"its indirect data ({indirect} transfers)",
        f"({drops[7]} drops against {drops[6]})",
    ):
        assert quoted in text, quoted
    results = [fabric(output) for output in outputs]
    for output, flows in zip(outputs, [2, 8, 8, 8, 8, 8, 16, 16]):
        assert f"{flows} flows; ended: {flows} success" in output
    slot = 8.752
    # Step 1: two senders, no drop, the link's time plus the handshake.
    _, longest, retransmissions, drops = results[0]
    assert drops == {} and retransmissions == 0
    assert 2 * 64 * slot < longest < 2 * 64 * slot + 50
    # Step 2: drops at the port towards host 0 only, more retransmissions than drops.
    _, longest, retransmissions, drops = results[1]
    assert list(drops) == [0] and retransmissions > drops[0]
    assert longest > 8 * 64 * slot + 1000
    # Step 3: the smallest buffer is the fastest, the largest the slowest, without drops.
    small, middle, large = results[2], results[3], results[4]
    assert small[1] < middle[1] < large[1]
    assert large[3] == {} and large[2] > 0
    # Step 4: a timer that fits the queue: no retransmission, close to the prediction.
    _, longest, retransmissions, drops = results[5]
    assert retransmissions == 0 and drops == {}
    assert 8 * 64 * slot < longest < 8 * 64 * slot + 50
    # Step 5: the dynamic method is not faster under incast.
    assert "indirect" in outputs[7] and results[7][0] >= results[6][0]


def test_lab6_roce_on_the_wire(drp_root, tmp_path):
    outputs = run_lab(6, drp_root, tmp_path)
    calls = [re.search(r"round trip min ([\d.]+) us, mean ([\d.]+) us, max ([\d.]+) us", o)
             for o in (outputs[0], outputs[2], outputs[4], outputs[5])]
    assert all(calls)
    base, lost, last, late = (tuple(m.groups()) for m in calls)
    text = key_text(6)
    assert "Connected after 49.556 µs" in text and "connected after +49.556us" in outputs[0]
    assert f"(max {base[2]} µs)" in text
    # Step 2: stock tshark names the CM's messages and the RC packets.
    for name in ("CM: ConnectRequest", "CM: ConnectReply", "RC Send First", "RC Send Middle",
                 "CM: ReadyToUse", "RC Send Last", "RC Acknowledge", "RC Send Only"):
        assert name in outputs[1], name
    # Step 3: one sequence NAK, the call a round trip and two packets longer.
    assert outputs[3].count("[PSN Sequence Error]") == 1
    assert f"The first call takes {lost[2]} µs instead of {base[2]}" in text
    assert 8.85 * 2 - 1 < float(lost[2]) - float(base[2]) < 8.85 * 2 + 5
    # Step 4: the local ACK timeout, 4.096 us x 2^14.
    assert f"Max {last[2]} µs" in text
    assert 67108.864 < float(last[2]) < 67108.864 + 100
    # Step 5: two RNR NAKs, 0.64 ms apart; the call taken at the third try.
    naks = [line for line in outputs[6].splitlines() if "RC Acknowledge" in line]
    assert len(naks) == 2
    assert f"The second call takes {late[2]} µs (max), the mean of the four {late[1]} µs" in text
    assert 1000 < float(late[2]) < 1000 + 640 + 100
