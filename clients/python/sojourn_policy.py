"""Scheduling policies for sojourn in Python: the client side of the exec
protocol (docs/exec-protocol.md), standard library only.

A policy subclasses Policy and is run with run(MyPolicy()); sojourn starts
it as a child process:

    bin/bench replay --trace fb2009.arrow \\
        --exec 'python3 clients/python/examples/fifo.py'

The engine and the policy move in lockstep. At each decision point the
policy sees, in order, the events since the last one (on_event) and then
the node that asks (on_heartbeat). Through the Heartbeat it queries the
engine's views (pending_map, pending_reduce, job, task, node, cluster) and
acts on the node (launch, kill, suspend, resume). Actions are sent with the
next query or when on_heartbeat returns, and the engine applies them in
order before answering, so a query always sees the earlier actions.

For reinforcement learning, Environment turns the loop inside out:
reset() and step(actions) return each decision point as an observation.

A policy imports this module: from clients/python/ itself (Python puts a
script's directory first on sys.path), from examples/ (which add their
parent directory to sys.path), or from anywhere with a copy of this one
file beside it; see README.md.
"""

import bisect
import json
import sys

PROTOCOL = 1

MAP, REDUCE = "map", "reduce"
KINDS = (MAP, REDUCE)
KIND_INDEX = {MAP: 0, REDUCE: 1}
_LOCALITIES = {x: x for x in ("node-local", "rack-local", "off-rack")}

_dumps = json.JSONEncoder(separators=(",", ":")).encode
_decode = json.JSONDecoder().decode

# Actions are kept as JSON text: their fields are integers and names of
# the protocol, which need no escaping, and joining text is much cheaper
# than encoding dicts, message after message.
_ACTION = '{"op":"%s","job":%d,"kind":"%s","task":%d}'
_LAUNCH_BEST = '{"op":"launch_best","job":%d,"kind":"%s","max_locality":"%s"}'
_EMPTY = b'{"actions":[]}\n'


class ProtocolError(Exception):
    """The engine sent something this client does not understand."""


class Heartbeat:
    """One decision point: a node reporting in with free slots.

    time (µs of simulated time), node, free and demand ([map, reduce]) and
    suspended (tasks suspended on the node, as {"job", "kind", "task"}, in
    the engine's order) are the engine's message. free and demand are kept up to date by this
    client's launch and resume, as the engine's own counts would be; after
    a kill or a suspension, ask cluster() or node() for exact counts.
    """

    __slots__ = ("time", "node", "free", "demand", "suspended", "msg",
                 "_conn", "_actions", "busy")

    def __init__(self, conn, msg):
        self._conn = conn
        self.msg = msg
        self.time = msg["time"]
        self.node = msg["node"]
        self.free = msg["free"]
        self.demand = msg["demand"]
        self.suspended = msg.get("suspended", [])
        self._actions = []
        self.busy = None

    # Actions: applied by the engine in order, before the next query's
    # answer, or at the end of the decision.

    def launch(self, job, kind, task):
        """Launch pending task (job, kind, task) on this node."""
        self._actions.append(_ACTION % ("launch", job, KINDS[KIND_INDEX[kind]], task))
        k = KIND_INDEX[kind]
        self.free[k] -= 1
        self.demand[k] -= 1

    def launch_best(self, job, kind, max_locality="off-rack"):
        """Launch the task of job the engine's picker offers on this node:
        what pending_map (at max_locality or better) or pending_reduce would
        answer, without the round trip. The job must have one (an error
        ends the run otherwise); the policy learns which from the
        task-started event."""
        self._actions.append(_LAUNCH_BEST % (job, KINDS[KIND_INDEX[kind]],
                                             _LOCALITIES[max_locality]))
        k = KIND_INDEX[kind]
        self.free[k] -= 1
        self.demand[k] -= 1

    def resume(self, job, kind, task):
        """Resume a task suspended on this node in a free slot."""
        self._actions.append(_ACTION % ("resume", job, KINDS[KIND_INDEX[kind]], task))
        self.free[KIND_INDEX[kind]] -= 1
        # As the engine does: the last suspended task takes the place of
        # the resumed one, so the list stays in the engine's order.
        sus = self.suspended
        for i, s in enumerate(sus):
            if s["job"] == job and s["kind"] == kind and s["task"] == task:
                sus[i] = sus[-1]
                sus.pop()
                break

    def suspend(self, job, kind, task):
        """Suspend a task running on this node; it keeps its progress."""
        self._actions.append(_ACTION % ("suspend", job, KINDS[KIND_INDEX[kind]], task))
        self.free[KIND_INDEX[kind]] += 1
        self.suspended.append({"job": job, "kind": kind, "task": task})

    def kill(self, job, kind, task):
        """Kill a task running or suspended on this node; its work is lost."""
        self._actions.append(_ACTION % ("kill", job, KINDS[KIND_INDEX[kind]], task))

    def wants_busy_heartbeats(self, yes):
        """For a policy that preempts: whether nodes with no free slot
        should keep heartbeating from now on."""
        self.busy = bool(yes)

    # Queries: each is one round trip; pending actions go with it.

    def query(self, name, **fields):
        msg = {"query": name}
        msg.update(fields)
        text = _dumps(msg)
        if self._actions:
            text = text[:-1] + ',"actions":[' + ",".join(self._actions) + "]}"
            self._actions = []
        return self._conn.ask(text)

    def pending_map(self, job, max_locality="off-rack", node=None):
        """The best-placed pending map of job for node (this node by
        default), no worse than max_locality: (task, locality), or None."""
        if node is None:
            a = self.query("pending_map", job=job, max_locality=max_locality)
        else:
            a = self.query("pending_map", job=job, node=node, max_locality=max_locality)
        t = a["task"]
        return None if t < 0 else (t, a["locality"])

    def pending_reduce(self, job):
        """A pending reduce of job if its reduces may launch, else None."""
        t = self.query("pending_reduce", job=job)["task"]
        return None if t < 0 else t

    def job(self, job):
        """The job's counts now (pending, running, suspended, finished)."""
        return self.query("job", job=job)

    def task(self, job, kind, task):
        """One task's state, node, attempts and times."""
        return self.query("task", job=job, kind=kind, task=task)

    def node_state(self):
        """This node: rack, free slots, running and suspended tasks."""
        return self.query("node")

    def cluster(self):
        """Time, nodes, slots, demand and jobs of the whole cluster."""
        return self.query("cluster")

    def _final(self):
        """The line that ends the decision, as bytes."""
        if not self._actions and self.busy is None:
            return _EMPTY
        text = '{"actions":[' + ",".join(self._actions) + "]"
        if self.busy is not None:
            text += ',"busy":' + ("true" if self.busy else "false")
        return (text + "}\n").encode()


class Policy:
    """A scheduling policy. Override on_event and on_heartbeat.

    name: how the policy calls itself, and so the name its results carry
    unless bench names it (--exec NAME=COMMAND): letters, digits, '.', '_'
    or '-', with exec- before it if a built-in policy has it (sjf: exec-sjf).
    options: the options it takes, with
    their defaults; the engine's exec.args set them (self.options holds the
    values once start is called). preempts: whether it may act on nodes with
    no free slot (then the engine sends busy heartbeats, see
    Heartbeat.wants_busy_heartbeats). skip_idle: let the engine skip
    heartbeats that offer nothing to do (no kind with both a free slot and
    waiting tasks, nothing suspended on the node); a policy that only reacts
    to those gains speed and loses nothing.
    """

    name = "policy"
    options = {}
    preempts = False
    skip_idle = False

    def start(self, hello):
        """Called once with the engine's hello (cluster, jobs, options)."""

    def on_event(self, ev):
        """One event, a dict: "event" (job-arrived, task-started, …),
        "time" and the fields of its kind (job, kind, task, node; a job's
        arrival carries "info": maps, reduces, priority, submit, pool,
        name, true_work)."""

    def on_heartbeat(self, hb):
        """A decision: act on hb.node through hb."""

    def end(self, msg):
        """The run is over (msg may carry an "error")."""


class _Conn:
    """The two pipes, in binary: one write and one flush per message."""

    def __init__(self, inp, out):
        self.inp = getattr(inp, "buffer", inp)
        self.out = getattr(out, "buffer", out)

    def send(self, msg):
        """Send msg: a dict, JSON text, or a line of bytes."""
        if isinstance(msg, dict):
            msg = _dumps(msg)
        if isinstance(msg, str):
            msg = (msg + "\n").encode()
        self.out.write(msg)
        self.out.flush()

    def recv(self):
        line = self.inp.readline()
        if not line:
            return None
        return _decode(line.decode())

    def ask(self, msg):
        self.send(msg)
        a = self.recv()
        if a is None:
            raise ProtocolError("the engine closed the pipe during a query")
        return a


def _handshake(conn, policy):
    hello = conn.recv()
    if hello is None or hello.get("type") != "hello":
        raise ProtocolError("expected the hello message, got %r" % (hello,))
    # A hello of another protocol version is answered with this one's:
    # the engine names the mismatch and ends the run.
    opts = dict(policy.options)
    opts.update(hello.get("options", {}))
    policy.options = opts
    conn.send({"type": "ready", "protocol": PROTOCOL, "name": policy.name,
               "options": sorted(type(policy).options), "preempts": policy.preempts,
               "skip_idle": policy.skip_idle})
    return hello


def run(policy, inp=None, out=None):
    """Serve policy over stdin/stdout until the engine ends the run."""
    conn = _Conn(inp or sys.stdin, out or sys.stdout)
    hello = _handshake(conn, policy)
    policy.start(hello)
    on_event = policy.on_event
    on_heartbeat = policy.on_heartbeat
    while True:
        msg = conn.recv()
        if msg is None:
            return
        for ev in msg["events"]:
            on_event(ev)
        t = msg["type"]
        if t == "heartbeat":
            hb = Heartbeat(conn, msg)
            on_heartbeat(hb)
            conn.send(hb._final())
        elif t == "end":
            policy.end(msg)
            return
        else:
            raise ProtocolError("unknown message type %r" % (t,))


class Environment:
    """The protocol as an environment for reinforcement learning.

    obs = env.reset() waits for the first decision point; then
    obs, done = env.step(actions) applies actions (a list of
    ("launch" | "kill" | "suspend" | "resume", job, kind, task)) to the node
    that asks and returns the next decision point. An observation is the
    engine's heartbeat message (time, node, free, demand, events since the
    last one); env.heartbeat is the Heartbeat, for queries before step.
    done is True once the run is over (obs is then the "end" message).
    """

    def __init__(self, name="rl", preempts=False, skip_idle=True, inp=None, out=None):
        p = Policy()
        p.name, p.preempts, p.skip_idle = name, preempts, skip_idle
        self._policy = p
        self._conn = _Conn(inp or sys.stdin, out or sys.stdout)
        self.heartbeat = None
        self.hello = None

    def reset(self):
        self.hello = _handshake(self._conn, self._policy)
        obs, _ = self._next()
        return obs

    def _next(self):
        msg = self._conn.recv()
        if msg is None or msg["type"] == "end":
            self.heartbeat = None
            return msg, True
        self.heartbeat = Heartbeat(self._conn, msg)
        return msg, False

    def step(self, actions=()):
        hb = self.heartbeat
        if hb is None:
            raise ProtocolError("step after the end of the run")
        for op, job, kind, task in actions:
            getattr(hb, op)(job, kind, task)
        self._conn.send(hb._final())
        return self._next()


class Subset:
    """Jobs in a policy's order that may have tasks of one kind to launch:
    the toolkit's order.Subset. key(job) gives a job's place; jobs found
    with nothing to launch are dropped on the way, and added back when a
    task of theirs is pending again."""

    __slots__ = ("key", "jobs", "keys", "member")

    def __init__(self, key):
        self.key = key
        self.jobs = []
        self.keys = []
        self.member = set()

    def add(self, j):
        if j in self.member:
            return
        self.member.add(j)
        k = self.key(j)
        i = bisect.bisect_left(self.keys, k)
        self.keys.insert(i, k)
        self.jobs.insert(i, j)

    def first(self, jobs, kind):
        """The first job with a task of kind to launch (a pending map, or
        a pending reduce past slow-start), or None. jobs maps a job's index
        to its Job."""
        k = KIND_INDEX[kind]
        js = self.jobs
        i = 0
        while i < len(js):
            j = jobs[js[i]]
            eligible = k == 0 or j.reduces_eligible
            if j.pending[k] > 0 and eligible:
                return js[i]
            if j.pending[k] == 0 and (eligible or j.done):
                self.member.discard(js[i])
                del js[i]
                del self.keys[i]
            else:
                i += 1
        return None


class Job:
    """What a policy knows of a job from the events and its own actions."""

    __slots__ = ("index", "maps", "reduces", "priority", "submit", "pool", "name",
                 "true_work", "user_estimate", "pending", "running", "finished", "reduces_eligible",
                 "maps_done", "done")

    def __init__(self, index, info):
        self.index = index
        self.maps = info["maps"]
        self.reduces = info["reduces"]
        self.priority = info["priority"]
        self.submit = info["submit"]
        self.pool = info["pool"]
        self.name = info.get("name", "")
        self.true_work = info.get("true_work")
        # the user's estimate of the job's work (slot-s), None without one
        self.user_estimate = info.get("user_estimate")
        self.pending = [self.maps, self.reduces]
        self.running = [0, 0]
        self.finished = [0, 0]
        self.reduces_eligible = False
        self.maps_done = False
        self.done = False


class Jobs(dict):
    """The jobs by index, kept from the events. Actions of the policy's
    own change the counts at once (launched, killed), as the engine's views
    do; the events that report them later are then skipped."""

    def on_event(self, ev):
        e = ev["event"]
        if e == "task-finished":
            j = self[ev["job"]]
            k = KIND_INDEX[ev["kind"]]
            j.running[k] -= 1
            j.finished[k] += 1
        elif e == "job-arrived":
            self[ev["job"]] = Job(ev["job"], ev["info"])
        elif e == "reduces-eligible":
            self[ev["job"]].reduces_eligible = True
        elif e == "maps-done":
            self[ev["job"]].maps_done = True
        elif e == "job-finished":
            self[ev["job"]].done = True
        elif e == "task-lost":
            j = self[ev["job"]]
            k = KIND_INDEX[ev["kind"]]
            j.running[k] -= 1
            j.pending[k] += 1

    def launched(self, job, kind):
        j = self[job]
        k = KIND_INDEX[kind]
        j.pending[k] -= 1
        j.running[k] += 1

    def killed(self, job, kind, was_running=True):
        j = self[job]
        k = KIND_INDEX[kind]
        if was_running:
            j.running[k] -= 1
        j.pending[k] += 1
