package run

import "runtime/debug"

// CodeVersion is the VCS revision the running binary was built from (with
// "+dirty" for uncommitted changes), or "unknown" for builds without VCS
// stamping such as go run and go test.
func CodeVersion() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	var rev, dirty string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = "+dirty"
			}
		}
	}
	if rev == "" {
		return "unknown"
	}
	return rev + dirty
}
