"""The engine's minimal FIFO (replay.FIFO, registered as fifo-minimal) in
Python, decision for decision: jobs in order of priority (highest first),
then trace order; each free slot goes to the first job with a task to
launch, maps at their best locality; tasks suspended on the node resume
while slots are free. Its results are byte-identical to fifo-minimal's.

    bin/bench replay --trace fb2009.arrow \\
        --exec 'python3 clients/python/examples/fifo.py'

Option picks: "engine" (the default) launches with launch_best, one round
trip per heartbeat; "query" asks pending_map or pending_reduce for each
task, then launches it, one round trip per task (--exec.args picks=query).
"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from sojourn_policy import MAP, REDUCE, Jobs, Policy, Subset, run  # noqa: E402


class FIFO(Policy):
    name = "fifo-minimal"
    options = {"picks": "engine"}
    skip_idle = True  # it does nothing on a node with nothing to launch

    def start(self, hello):
        if self.options["picks"] not in ("engine", "query"):
            raise SystemExit("fifo: picks %r is not engine or query" % self.options["picks"])
        self.query = self.options["picks"] == "query"
        self.jobs = Jobs()
        key = lambda j: (-self.jobs[j].priority, j)  # noqa: E731
        self.wants = {MAP: Subset(key), REDUCE: Subset(key)}

    def on_event(self, ev):
        self.jobs.on_event(ev)
        e = ev["event"]
        if e == "job-arrived":
            j = ev["job"]
            self.wants[MAP].add(j)
            if ev["info"]["reduces"] > 0:
                self.wants[REDUCE].add(j)
        elif e == "task-lost" or e == "task-killed":
            self.wants[ev["kind"]].add(ev["job"])

    def on_heartbeat(self, hb):
        jobs = self.jobs
        while hb.free[0] > 0 and hb.demand[0] > 0:
            j = self.wants[MAP].first(jobs, MAP)
            if j is None:
                break
            if self.query:
                t, _ = hb.pending_map(j)
                hb.launch(j, MAP, t)
            else:
                hb.launch_best(j, MAP)
            jobs.launched(j, MAP)
        # Resume the tasks suspended here while slots of their kind are free.
        resumed = True
        while resumed:
            resumed = False
            for s in hb.suspended:
                if hb.free[0 if s["kind"] == MAP else 1] > 0:
                    hb.resume(s["job"], s["kind"], s["task"])
                    resumed = True
                    break
        while hb.free[1] > 0 and hb.demand[1] > 0:
            j = self.wants[REDUCE].first(jobs, REDUCE)
            if j is None:
                break
            if self.query:
                hb.launch(j, REDUCE, hb.pending_reduce(j))
            else:
                hb.launch_best(j, REDUCE)
            jobs.launched(j, REDUCE)


if __name__ == "__main__":
    run(FIFO())
