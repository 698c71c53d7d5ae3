package exec

// Help is the protocol in brief, for bench replay --help; the full
// description is docs/exec-protocol.md.
const Help = `Policies in any language (--exec '[NAME=]COMMAND', repeatable): the command runs as a child
process that reads one JSON object per line on stdin and writes one per line on stdout
(protocol 1; its stderr passes through). Its results are named NAME, or else by the name it
declares in "ready", with exec- before it if a built-in policy has it (sjf.py declares sjf:
exec-sjf); a name is letters, digits, '.', '_' or '-'. Name two that declare one name apart.
Times are integer microseconds of simulated time, kinds "map" or "reduce", localities
"node-local", "rack-local" or "off-rack" ("no-input": a map of a job without input data).
  engine: {"type":"hello","protocol":1,"options":{"size":"tasks"},"cluster":{"nodes":100,
           "nodes_per_rack":20,"map_slots":4,"reduce_slots":2,"heartbeat":1000000,
           "max_suspended":4,"slow_start":0.05,"shuffle_bandwidth":1e+08},"jobs":100}
  policy: {"type":"ready","protocol":1,"name":"sjf","options":["size"],"preempts":false,
           "skip_idle":true}
  engine: {"type":"heartbeat","time":3360000,"node":36,"free":[4,2],"demand":[3,0],
           "suspended":[...only if any],"events":[{"event":"job-arrived","time":3357529,"job":1,
           "info":{"maps":3,"reduces":23,"priority":0,"submit":3357529,"pool":"default",
           "name":"fb2009-1","true_work":[141.408,1466.02]}},{"event":"task-finished",
           "time":4803600,"job":0,"kind":"map","task":0,"node":0},{"event":"job-finished",...}]}
  policy: {"query":"pending_map","job":1,"max_locality":"off-rack"}    (optional queries,
  engine: {"task":0,"locality":"rack-local"}                            each answered at once)
  policy: {"query":"pending_reduce","job":1}  ->  {"task":5}  ({"task":-1}: none)
  policy: {"query":"job","job":1}, {"query":"task","job":1,"kind":"map","task":0},
          {"query":"node"}, {"query":"cluster"}  ->  the views' counts and states
  policy: {"actions":[{"op":"launch","job":1,"kind":"map","task":0},
           {"op":"launch_best","job":1,"kind":"map","max_locality":"off-rack"}],"busy":false}
          (a line with no "query" ends the decision; a line with both applies the actions,
          in order, then answers the query; ops: launch, launch_best, kill, suspend, resume)
  engine: {"type":"end","time":2515848554,"events":[...]}  (then stdin closes; exit 0)
Events: job-arrived, task-started, task-finished, task-suspended, task-resumed, task-killed,
task-lost, reduces-eligible, maps-done, job-finished, node-failed, node-recovered. A policy
that says "preempts" gets heartbeats from busy nodes until it answers "busy":false; one that
says "skip_idle" is not asked when the node can launch nothing. An invalid action, a
malformed line, a child that exits, or one silent past --exec.timeout seconds ends the run
with one line naming the policy, the simulated time and the offending message.
Python client and examples: clients/python (sojourn_policy.py; examples/fifo.py, sjf.py, which
run as they are from any directory: --exec 'python3 clients/python/examples/sjf.py').`
