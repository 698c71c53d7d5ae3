package results

import (
	"github.com/apache/arrow/go/v15/arrow"
)

// SchemaVersion is the version of the result schemas.
const SchemaVersion = "1"

// Metadata keys every result file carries.
const (
	KeyKind          = "sojourn.kind" // "jobs", "tasks" or "occupancy"
	KeySchemaVersion = "sojourn.schema_version"
	// KeyWorkload names the workload a run replayed (the sweep's workload
	// name, or the trace file's name without its extension); jobs files
	// repeat it in their workload column.
	KeyWorkload = "workload"
)

// Column documents one column of a result schema.
type Column struct {
	Name     string
	Type     arrow.DataType
	Nullable bool
	Unit     string
	Doc      string
}

var (
	i32 = arrow.PrimitiveTypes.Int32
	i64 = arrow.PrimitiveTypes.Int64
	u64 = arrow.PrimitiveTypes.Uint64
	f64 = arrow.PrimitiveTypes.Float64
	str = arrow.BinaryTypes.String
	// category is a small fixed set of strings, dictionary-encoded (pandas
	// reads it as a categorical).
	category = &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int8, ValueType: arrow.BinaryTypes.String}
)

// JobColumns is the schema of jobs.arrow. Its first three columns repeat
// the run's policy, seed and workload on every row (one-entry
// dictionaries, a few bytes per file), so that jobs files globbed from
// many runs into one table say which run each row came from.
var JobColumns = []Column{
	{"policy", category, false, "-", "policy the run replayed (metadata scheduler)"},
	{"seed", u64, false, "-", "seed of the replay (metadata replay.seed)"},
	{"workload", category, false, "-", "workload the run replayed (metadata workload)"},
	{"job_index", i32, false, "-", "row of the job in the trace"},
	{"job_id", i64, false, "-", "job id from the trace"},
	{"class", str, false, "-", "class label from the trace"},
	{"pool", str, false, "-", "pool or user from the trace"},
	{"maps", i32, false, "tasks", "map tasks"},
	{"reduces", i32, false, "tasks", "reduce tasks"},
	{"submit_s", f64, false, "s", "submit time"},
	{"first_launch_s", f64, false, "s", "launch of the job's first task"},
	{"maps_done_s", f64, false, "s", "end of the map phase (last map finished)"},
	{"reduces_eligible_s", f64, true, "s", "time the job reached slow-start; null for map-only jobs"},
	{"finish_s", f64, false, "s", "end of the job (last task finished)"},
	{"sojourn_s", f64, false, "s", "finish − submit"},
	{"map_sojourn_s", f64, false, "s", "maps_done − submit"},
	{"reduce_sojourn_s", f64, true, "s", "finish − reduces_eligible; null for map-only jobs"},
	{"kills", i32, false, "attempts", "attempts killed by the policy"},
	{"suspensions", i32, false, "events", "suspensions by the policy"},
	{"lost", i32, false, "attempts", "attempts lost to node failures"},
	{"node_local_maps", i32, false, "tasks", "maps that read their block on their own node"},
	{"rack_local_maps", i32, false, "tasks", "maps that read their block from another node of their rack"},
	{"off_rack_maps", i32, false, "tasks", "maps that read their block from another rack (a job without input data has none of the three: its maps read no block)"},
}

// TaskColumns is the schema of tasks.arrow.
var TaskColumns = []Column{
	{"job_index", i32, false, "-", "row of the job in the trace"},
	{"kind", category, false, "-", "map or reduce"},
	{"task", i32, false, "-", "index of the task among the job's tasks of its kind"},
	{"attempt", i32, false, "-", "attempt number, from 1"},
	{"node", i32, false, "-", "node the segment ran on"},
	{"start_s", f64, false, "s", "start of the segment"},
	{"end_s", f64, false, "s", "end of the segment"},
	{"swap_s", f64, false, "s", "swap time paid at the start of the segment (suspend/resume)"},
	{"locality", category, false, "-", "node-local, rack-local or off-rack; no-input for a map of a job without input data (no block to read); reduces are node-local"},
	{"outcome", category, false, "-", "finished, suspended, killed or lost"},
}

// OccupancyColumns is the schema of occupancy.arrow.
var OccupancyColumns = []Column{
	{"time_s", f64, false, "s", "time of the change"},
	{"job_index", i32, false, "-", "row of the job in the trace"},
	{"running_maps", i32, false, "slots", "map slots the job holds from time_s on"},
	{"running_reduces", i32, false, "slots", "reduce slots the job holds from time_s on"},
	{"suspended", i32, false, "tasks", "tasks of the job suspended from time_s on"},
}

func schemaOf(cols []Column, md map[string]string, kind string) *arrow.Schema {
	fields := make([]arrow.Field, len(cols))
	for i, c := range cols {
		fields[i] = arrow.Field{Name: c.Name, Type: c.Type, Nullable: c.Nullable}
	}
	keys := []string{KeyKind, KeySchemaVersion}
	vals := []string{kind, SchemaVersion}
	for _, k := range sortedKeys(md) {
		if k == KeyKind || k == KeySchemaVersion {
			continue
		}
		keys = append(keys, k)
		vals = append(vals, md[k])
	}
	m := arrow.NewMetadata(keys, vals)
	return arrow.NewSchema(fields, &m)
}
