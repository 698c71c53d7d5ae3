"""The engine's minimal FIFO again, written against Environment, the
reset()/step() interface meant for reinforcement learning: the loop is the
caller's, and each step takes a list of actions and returns the next
decision point. Its results are byte-identical to fifo-minimal's too.

    bin/bench replay --trace fb2009.arrow \\
        --exec 'python3 clients/python/examples/fifo_env.py'
"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from sojourn_policy import MAP, REDUCE, Environment, Jobs, Subset  # noqa: E402


def main():
    env = Environment(name="fifo-minimal", skip_idle=True)
    jobs = Jobs()
    key = lambda j: (-jobs[j].priority, j)  # noqa: E731
    wants = {MAP: Subset(key), REDUCE: Subset(key)}
    obs, done = env.reset(), False
    while not done:
        for ev in obs["events"]:
            jobs.on_event(ev)
            e = ev["event"]
            if e == "job-arrived":
                wants[MAP].add(ev["job"])
                if ev["info"]["reduces"] > 0:
                    wants[REDUCE].add(ev["job"])
            elif e == "task-lost" or e == "task-killed":
                wants[ev["kind"]].add(ev["job"])
        free, demand = list(obs["free"]), list(obs["demand"])
        actions = []
        for k, kind in ((0, MAP), (1, REDUCE)):
            if kind == REDUCE:
                # Resume what is suspended here, in the engine's order,
                # while slots of its kind are free.
                sus = list(obs.get("suspended", []))
                i = 0
                while i < len(sus):
                    s = sus[i]
                    sk = 0 if s["kind"] == MAP else 1
                    if free[sk] > 0:
                        actions.append(("resume", s["job"], s["kind"], s["task"]))
                        free[sk] -= 1
                        sus[i] = sus[-1]
                        sus.pop()
                        i = 0
                    else:
                        i += 1
            while free[k] > 0 and demand[k] > 0:
                j = wants[kind].first(jobs, kind)
                if j is None:
                    break
                actions.append(("launch_best", j, kind, "off-rack"))
                jobs.launched(j, kind)
                free[k] -= 1
                demand[k] -= 1
        obs, done = env.step(actions)


if __name__ == "__main__":
    main()
