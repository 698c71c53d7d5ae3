// Package layout holds the test that keeps sojourn's packages in their
// layers: the trace format at the bottom, then the replay engine, the
// policies (each on its own, on a shared toolkit), the run path, and the
// reports and the command on top. An import that runs back up the
// pipeline, or a policy that reaches into another policy, fails the test.
package layout
