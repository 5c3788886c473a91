#!/usr/bin/env python3
"""The daemon's memory and other clients' latency under hostile buffers and Cypher (issue 39).

A copy of REPO gets a running daemon (`tether start`). Then, each probe read against the
daemon's resident memory (VmRSS, VmHWM from /proc) and the latency of a `callers` query sent
by another client every 0.2 s while the probe runs (the worst one is reported):
- `buffers`: as many connections as may hold buffers (4) each send ~1 MiB buffers of new
  files until refused, then ask `callers` (each builds a graph with its buffers), and a fifth
  connection is refused; then all close, and the memory is read again after 5 s;
- `cypher`: two cross products of every pair of symbols at once (`MATCH (a:Symbol),(b:Symbol)
  RETURN a.id, b.id`) and a third (refused as busy); the statements' workers are separate processes, so their
  peak memory is read from /proc too while they run.

    python3 benches/hostile_clients_memory.py REPO --tether PATH/TO/tether [--json OUT]
"""

import argparse
import json
import os
import socket
import threading
import time

from bench_daemon import memory_of, report, running_daemon


class Client:
    """One newline-delimited JSON-RPC connection to the daemon's socket."""

    def __init__(self, path):
        self.socket = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.socket.connect(path)
        self.socket.settimeout(120)
        self.reader = self.socket.makefile("rb")
        self.next_id = 0

    def call(self, method, params):
        self.next_id += 1
        line = json.dumps({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        self.socket.sendall(line.encode() + b"\n")
        return json.loads(self.reader.readline())

    def close(self):
        self.socket.close()


class Watcher:
    """Asks `callers` every 0.2 s and samples the daemon's and its workers' memory."""

    def __init__(self, socket_path, pid, symbol):
        self.client = Client(socket_path)
        self.pid, self.symbol = pid, symbol
        self.worst_seconds, self.worker_peak_mib, self.daemon_peak_now_mib = 0.0, 0.0, 0.0
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self.loop)
        self.thread.start()

    def loop(self):
        while not self.stopping.is_set():
            started = time.monotonic()
            self.client.call("callers", {"symbol": self.symbol})
            self.worst_seconds = max(self.worst_seconds, time.monotonic() - started)
            daemon = memory_of(self.pid)
            if daemon:
                self.daemon_peak_now_mib = max(self.daemon_peak_now_mib, daemon[1])
            for worker in cypher_workers():
                sampled = memory_of(worker)
                if sampled:
                    self.worker_peak_mib = max(self.worker_peak_mib, sampled[1])
            time.sleep(0.2)

    def stop(self):
        self.stopping.set()
        self.thread.join()
        self.client.close()
        return {
            "worst_callers_seconds": round(self.worst_seconds, 3),
            "daemon_max_rss_mib": round(self.daemon_peak_now_mib),
            "worker_max_rss_mib": round(self.worker_peak_mib),
        }


def cypher_workers():
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/cmdline", "rb") as cmdline:
                    if b"cypher-worker" in cmdline.read().split(b"\0"):
                        found.append(int(entry))
            except OSError:
                pass
    return found


def buffers_probe(socket_path):
    editors = [Client(socket_path) for _ in range(4)]
    almost_a_mebibyte = "#" * ((1 << 20) - 1000)
    sent, refused = 0, None
    for number, editor in enumerate(editors):
        for file in range(8):
            answer = editor.call("buffer_update", {"path": f"bench_buffer_{number}_{file}.py",
                                                   "text": "def f():\n    pass\n" + almost_a_mebibyte,
                                                   "version": 1})
            if "error" in answer:
                refused = answer["error"]["message"]
                break
            sent += 1
        editor.call("lookup", {"query": "f"})
    fifth = Client(socket_path)
    fifth_answer = fifth.call("buffer_update", {"path": "bench_fifth.py", "text": "x = 1\n", "version": 1})
    for editor in editors + [fifth]:
        editor.close()
    return {"buffers_sent": sent, "refused": refused, "fifth": fifth_answer.get("error", {}).get("message")}


def said(answer):
    """The end of an answer's error message (where the reason is), or how many rows it gave."""
    if "error" in answer:
        return answer["error"].get("message", "")[-160:]
    result = answer.get("result", {})
    return f"{len(result.get('rows', []))} rows, {result.get('rows_omitted', 0)} omitted"


def cypher_probe(socket_path):
    # The statement: every pair of symbols (15k symbols: 237M rows), which grew the
    # daemon to 11 GiB before statements ran in watched workers.
    runaway = "MATCH (a:Symbol),(b:Symbol) RETURN a.id, b.id"
    answers = []

    def one():
        client = Client(socket_path)
        started = time.monotonic()
        answer = client.call("cypher", {"statement": runaway})
        answers.append({"seconds": round(time.monotonic() - started, 2),
                        "said": said(answer)})
        client.close()

    threads = [threading.Thread(target=one) for _ in range(2)]
    for thread in threads:
        thread.start()
    time.sleep(1.0)
    third = Client(socket_path)
    busy = said(third.call("cypher", {"statement": runaway}))
    third.close()
    for thread in threads:
        thread.join()
    return {"statements": answers, "third": busy, "workers_left": len(cypher_workers())}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("repo")
    parser.add_argument("--tether", required=True)
    parser.add_argument("--json")
    args = parser.parse_args()
    with running_daemon(args.repo, args.tether, "tether-hostile-memory-") as daemon:
        symbols = daemon.symbols()
        symbol = next(item["qualified_name"] for item in symbols if item.get("kind") in ("function", "method"))
        results = {"repo": args.repo, "symbols": len(symbols), "rest_mib": round(memory_of(daemon.pid)[1])}
        for name, probe in [("buffers", buffers_probe), ("cypher", cypher_probe)]:
            watcher = Watcher(daemon.socket, daemon.pid, symbol)
            outcome = probe(daemon.socket)
            outcome.update(watcher.stop())
            time.sleep(5)
            outcome["daemon_rss_after_mib"] = round(memory_of(daemon.pid)[1])
            outcome["daemon_peak_mib"] = round(memory_of(daemon.pid)[0])
            results[name] = outcome
            print(name, json.dumps(outcome), flush=True)
    report(results, args.json)


if __name__ == "__main__":
    main()
