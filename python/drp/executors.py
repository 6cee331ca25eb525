"""Where a campaign's runs execute: local worker processes or a Dask cluster.

A process keeps ns-3 state from one run to the next (the simulator is a
process-wide singleton, and counters such as the one that numbers random
streams survive it), so every run executes in a fresh process:

* locally, a worker process per run, forked from a server process that has
  imported drp and run nothing (multiprocessing's "forkserver", which this
  module sets to preload drp.executors). As with "spawn", the worker
  processes import the main module: a script that runs a campaign needs an
  ``if __name__ == "__main__":`` guard.
* on Dask, a child interpreter of the Dask worker per task.

Both executors yield ``(params, result)`` pairs as runs finish, where
``result`` is the dict of :func:`execute`.

Package path: the forkserver gets this package's directory in
``PYTHONPATH`` (it does not inherit ``sys.path``), and its worker processes
inherit it with the main module's ``sys.path`` changes; Dask workers
get this package's directory added to their ``sys.path`` when the campaign
connects (they must see the same file system, as on one machine or with a
shared directory), and hand it on to their child interpreters in
``PYTHONPATH``.
"""

import multiprocessing
import os
import pickle
import subprocess
import sys
from multiprocessing import connection
from typing import Any

from drp import _drp
from drp.experiment import summarize
from drp.fabric import SCENARIO as FABRIC_SCENARIO
from drp.fabric import execute_fabric

#: The directory that holds the package drp.
PACKAGE_PATH = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def execute(params, launch=None):
    """Run one experiment in this process.

    Returns the dict of ``_drp.run`` (params, columns, counters, version) with
    its ``summary`` added; a fabric run's parameters (``scenario = "fabric"``)
    go to ``_drp.run_fabric`` instead, or to the program of ``launch``
    (:class:`drp.fabric.Launch`; see :func:`drp.fabric.execute_fabric`).
    """
    if params.get("scenario") == FABRIC_SCENARIO:
        return execute_fabric({k: v for k, v in params.items() if k != "scenario"}, launch)
    result = _drp.run(**params)
    result["summary"] = summarize(result["columns"], result["counters"])
    return result


def _noted(error, params):
    """Return ``error`` with a note naming the run it comes from."""
    error.add_note(f"in the drp run of {params}")
    return error


def _result(future, params):
    """Return a finished run's result, or raise its error noting the run."""
    try:
        return future.result()
    except Exception as error:
        raise _noted(error, params)


def run_local(tasks, workers=None, launch=None):
    """Execute ``tasks`` (parameter dicts) in local worker processes.

    ``workers`` processes at a time (default: one per core), each forked
    from the forkserver for one run and ended after it. Yields
    ``(params, result)`` in the order runs finish; a failed run raises its
    exception here (a process that dies without an answer, e.g. on a fatal
    ns-3 error, raises ``RuntimeError`` with its exit code). Closing the
    generator early (an exception, an interrupt) starts no further runs and
    waits for the running ones.

    (The processes are managed here rather than by a ``ProcessPoolExecutor``
    with one task per child, whose replacement of each finished worker costs
    about ten times as long as the fork itself.)

    ``launch`` (:class:`drp.fabric.Launch`): fabric runs by that program.
    """
    if workers is not None and not workers >= 1:
        raise ValueError(f"workers = {workers} is out of range [1, ...]")
    _refuse_in_a_worker()
    _let_forkserver_import_drp()
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["drp.executors"])
    workers = workers or os.cpu_count() or 1
    waiting = list(reversed(tasks))
    # receiving end of a run's pipe -> (process, params)
    running: dict[Any, tuple[Any, dict[str, Any]]] = {}
    try:
        while waiting or running:
            while waiting and len(running) < workers:
                params = waiting.pop()
                receiver, sender = context.Pipe(duplex=False)
                process = context.Process(target=_serve_run, args=(params, sender, launch), daemon=True)
                process.start()
                sender.close()  # the child holds the only sending end
                running[receiver] = (process, params)
            for ready in connection.wait(list(running)):
                process, params = running.pop(ready)
                yield params, _answer(ready, process, params)
    finally:
        for process, _ in running.values():
            process.join()


#: Exit status of a worker process that found itself asked to run a campaign
#: while importing the main module: the script has no main guard.
UNGUARDED_EXIT = 86

#: What to do about it, as the parent says it.
UNGUARDED_MESSAGE = (
    "the script that runs this campaign starts it when it is imported: each worker process "
    "imports the main module (multiprocessing's forkserver, as with spawn) and would run the "
    'campaign again. Put the campaign under an `if __name__ == "__main__":` guard (see '
    "python/README.md), or run it from an interactive session"
)


def _refuse_in_a_worker():
    """End a worker process, with :data:`UNGUARDED_EXIT`, that runs a campaign.

    A worker imports the script's main module (as ``__mp_main__``) before it
    runs its experiment; a script whose campaign runs at import (no main guard)
    would start a campaign of its own there, in every worker. The worker ends
    at once, and the parent raises the error that says what to do (instead of
    a traceback from every worker and "exit code 1 without a result").
    """
    # multiprocessing's own test (spawn._check_not_importing_main): a process
    # still inheriting its parent's state is importing the main module.
    if getattr(multiprocessing.current_process(), "_inheriting", False):
        os._exit(UNGUARDED_EXIT)


def _let_forkserver_import_drp():
    """Put this package's directory on the forkserver's path.

    The forkserver is a new interpreter that preloads drp.executors (drp and
    the ns-3 libraries) once, so that each worker forked from it starts with
    them loaded. It does not get this process's ``sys.path``, only its
    environment, and a preload that fails to import is silently skipped: each
    worker would then load everything again (about 0.1 s per run). So the
    package's directory goes into ``PYTHONPATH`` before the server starts.
    """
    paths = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    if PACKAGE_PATH not in paths:
        os.environ["PYTHONPATH"] = os.pathsep.join([PACKAGE_PATH, *paths])


def _serve_run(params, sender, launch):
    """A worker process: run one experiment and send ``(ok, result or error)``."""
    try:
        reply = (True, execute(params, launch))
    except Exception as error:  # handed to the parent, which raises it
        reply = (False, error)
    try:
        sender.send(reply)
    except Exception as error:  # an answer that does not pickle: say what it was
        message = f"the run's answer does not pickle ({error}): {reply[1]!r:.2000}"
        sender.send((False, RuntimeError(message)))
    sender.close()


def _answer(receiver, process, params):
    """Return a finished run's result, or raise its error noting the run."""
    try:
        succeeded, value = receiver.recv()
    except EOFError:
        process.join()
        if process.exitcode == UNGUARDED_EXIT:
            raise RuntimeError(UNGUARDED_MESSAGE) from None
        succeeded, value = False, RuntimeError(
            f"the worker process ended with exit code {process.exitcode} without a result"
        )
    finally:
        receiver.close()
    process.join()
    if not succeeded:
        raise _noted(value, params)
    return value


def run_dask(tasks, scheduler, launch=None):
    """Execute ``tasks`` (parameter dicts) on the Dask cluster at ``scheduler``.

    ``scheduler`` is the address of its scheduler (e.g.
    "tcp://127.0.0.1:8786"). Yields ``(params, result)`` in the order runs
    finish; a failed run raises its exception here. Closing the generator
    early releases the remaining tasks. ``launch``: as :func:`run_local`'s
    (its program must be where the workers run).
    """
    import distributed

    client = distributed.Client(scheduler)
    try:
        # exec is pickled by reference, so the workers need not import drp to run it.
        path = repr(PACKAGE_PATH)
        client.run(exec, f"import sys\nif {path} not in sys.path: sys.path.insert(0, {path})", {})
        futures = {client.submit(execute_isolated, params, launch, pure=False): params for params in tasks}
        for future in distributed.as_completed(futures):
            yield futures[future], _result(future, futures[future])
    finally:
        client.close()


def execute_isolated(params, launch=None):
    """Run :func:`execute` in a child interpreter and return its result.

    For executors whose worker processes live on from run to run (Dask).
    """
    path = os.pathsep.join(filter(None, (PACKAGE_PATH, os.environ.get("PYTHONPATH"))))
    child = subprocess.run(
        [sys.executable, "-c", "import drp.executors; drp.executors.serve_child()"],
        input=pickle.dumps((params, launch)),
        capture_output=True,
        env=dict(os.environ, PYTHONPATH=path),
        check=False,
    )
    if child.returncode != 0:
        raise RuntimeError(
            f"drp run ended with exit status {child.returncode}: "
            f"{child.stderr.decode(errors='replace')[-2000:]}"
        )
    succeeded, value = pickle.loads(child.stdout)
    if not succeeded:
        raise value
    return value


def serve_child():
    """The child interpreter of :func:`execute_isolated`.

    Reads the parameters and the launch (pickled, a pair) from standard input, and writes
    ``(True, result)`` or ``(False, exception)`` (pickled) to standard output;
    what the simulation itself prints goes to standard error.
    """
    output = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    params, launch = pickle.load(sys.stdin.buffer)
    try:
        reply = (True, execute(params, launch))
    except Exception as error:  # handed to the parent, which raises it
        reply = (False, error)
    with output:
        pickle.dump(reply, output)
