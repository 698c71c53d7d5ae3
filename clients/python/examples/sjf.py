"""Shortest job first (schedulers/sjf with its default size=work) in
Python, decision for decision: jobs in increasing order of their true total
work, ties by priority (highest first), submit time and trace order; every
free slot goes to the first job with a task to launch, a map at the best
locality the node offers or a reduce past slow-start; nothing is
preempted. Its results are byte-identical to sjf's.

    bin/bench replay --trace fb2009.arrow \\
        --exec 'python3 clients/python/examples/sjf.py'

Option size=tasks (--exec.args size=tasks) orders by number of tasks.
"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from sojourn_policy import MAP, REDUCE, Jobs, Policy, Subset, run  # noqa: E402


class SJF(Policy):
    name = "sjf"
    options = {"size": "work"}
    skip_idle = True

    def start(self, hello):
        if self.options["size"] not in ("work", "tasks"):
            raise SystemExit("sjf: size %r is not work or tasks" % self.options["size"])
        self.by_tasks = self.options["size"] == "tasks"
        self.jobs = Jobs()
        self.size = {}

        def key(j):
            jb = self.jobs[j]
            return (self.size[j], -jb.priority, jb.submit, j)

        self.wants = {MAP: Subset(key), REDUCE: Subset(key)}

    def on_event(self, ev):
        self.jobs.on_event(ev)
        e = ev["event"]
        if e == "job-arrived":
            j, info = ev["job"], ev["info"]
            if self.by_tasks:
                self.size[j] = float(info["maps"] + info["reduces"])
            else:
                self.size[j] = info["true_work"][0] + info["true_work"][1]
            self.wants[MAP].add(j)
            if info["reduces"] > 0:
                self.wants[REDUCE].add(j)
        elif e == "task-lost" or e == "task-killed":
            self.wants[ev["kind"]].add(ev["job"])

    def on_heartbeat(self, hb):
        jobs = self.jobs
        for k, kind in ((0, MAP), (1, REDUCE)):
            wants = self.wants[kind]
            while hb.free[k] > 0:
                j = wants.first(jobs, kind)
                if j is None:
                    break
                hb.launch_best(j, kind)  # as pending_map or pending_reduce picks
                jobs.launched(j, kind)


if __name__ == "__main__":
    run(SJF())
