package results

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
)

// docSchemas is the page whose schema tables (section Notebooks) list the
// result files' columns.
const docSchemas = "../docs/replay.md"

// TestDocSchemas: the schema tables of docs/replay.md (section Notebooks)
// list every column with its type and unit, so the documentation follows
// the code.
func TestDocSchemas(t *testing.T) {
	data, err := os.ReadFile(docSchemas)
	if err != nil {
		t.Skip("no docs/replay.md beside the package:", err)
	}
	doc := string(data)
	typeName := func(c Column) string {
		switch {
		case c.Type.ID() == arrow.DICTIONARY:
			return "dictionary<int8, utf8>"
		case c.Type.ID() == arrow.STRING:
			return "utf8"
		}
		return c.Type.String()
	}
	for file, cols := range map[string][]Column{"jobs": JobColumns, "tasks": TaskColumns, "occupancy": OccupancyColumns} {
		for _, c := range cols {
			unit := c.Unit
			if unit == "-" {
				unit = "–"
			}
			typ := typeName(c)
			if c.Nullable {
				typ += ", nullable"
			}
			row := fmt.Sprintf("| `%s` | %s | %s | %s |", c.Name, typ, unit, c.Doc)
			if !strings.Contains(doc, row) {
				t.Errorf("%s lacks the %s row %q", docSchemas, file, row)
			}
		}
	}
}
