"""Shared setup of the daemon benchmarks: a copy of a repository with a running daemon.

Used by benches/hostile_clients_memory.py and benches/coverage_import_memory.py. The original
repository is never touched: it is copied to a temporary folder (without tether's own state),
indexed, and given a daemon that is stopped, with the copy removed, however the benchmark ends.
"""

import contextlib
import json
import os
import shutil
import subprocess
import tempfile


def run(command, cwd, check=True, timeout=900):
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, check=check, timeout=timeout)


def memory_of(pid):
    """(peak, current) resident memory of a process in MiB (VmHWM, VmRSS), or None when it is gone."""
    fields = {}
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                name, _, value = line.partition(":")
                fields[name] = value.split()
    except OSError:
        return None
    return int(fields["VmHWM"][0]) / 1024, int(fields["VmRSS"][0]) / 1024


def report(results, json_path):
    """Prints a benchmark's results as JSON, and writes them to `json_path` when given."""
    print(json.dumps(results, indent=2))
    if json_path:
        with open(json_path, "w") as out:
            json.dump(results, out, indent=2)


class RunningDaemon:
    """A daemon serving a copy of a repository: `repo` (the copy), `work` (its temporary
    parent, free for the benchmark's own files), `pid` and `socket` (from `tether status`)."""

    def __init__(self, tether, work, repo, pid, socket_path):
        self.tether, self.work, self.repo, self.pid, self.socket = tether, work, repo, pid, socket_path

    def symbols(self):
        """Every symbol of the daemon's graph, as `tether export` writes them."""
        exported = os.path.join(self.work, "export.json")
        run([self.tether, "export", self.repo, "-o", exported], self.repo)
        with open(exported) as export:
            return json.load(export).get("symbols", [])


@contextlib.contextmanager
def running_daemon(original, tether, prefix):
    """Copies `original`, indexes the copy and starts its daemon; stops it and removes the
    copy on the way out."""
    tether = os.path.abspath(tether)
    work = tempfile.mkdtemp(prefix=prefix)
    repo = os.path.join(work, "repo")
    try:
        shutil.copytree(original, repo, symlinks=True, ignore=shutil.ignore_patterns("tether"))
        shutil.rmtree(os.path.join(repo, ".git", "tether"), ignore_errors=True)
        run([tether, "index", repo], repo)
        run([tether, "start", repo], repo)
        status = json.loads(run([tether, "status", repo, "--json"], repo).stdout)
        yield RunningDaemon(tether, work, repo, status["pid"], status["socket"])
    finally:
        subprocess.run([tether, "stop", repo], capture_output=True)
        shutil.rmtree(work, ignore_errors=True)
