package reports

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"sojourn/internal/atomicfile"
)

// Validate checks a section before it is saved or rendered: a name, valid
// figures with distinct names, tables whose rows have one cell per column,
// and claims with a statement and a known verdict.
func (s Section) Validate() error {
	where := fmt.Sprintf("section %q", s.Name)
	if s.Name == "" {
		return invalid(where, "no name")
	}
	seen := map[string]bool{}
	for _, f := range s.Figures {
		if err := f.Validate(); err != nil {
			return fmt.Errorf("%s: %w", where, err)
		}
		if seen[f.Name] {
			return invalid(where, "two figures named %q", f.Name)
		}
		seen[f.Name] = true
	}
	for i, t := range s.Tables {
		tw := fmt.Sprintf("%s, table %d %q", where, i+1, t.Name)
		if len(t.Columns) == 0 {
			return invalid(tw, "no columns")
		}
		for r, row := range t.Rows {
			if len(row) != len(t.Columns) {
				return invalid(tw, "row %d has %d cells for %d columns", r+1, len(row), len(t.Columns))
			}
		}
	}
	for i, c := range s.Claims {
		cw := fmt.Sprintf("%s, claim %d %q", where, i+1, c.Statement)
		if c.Statement == "" {
			return invalid(cw, "no statement")
		}
		switch c.Verdict {
		case Holds, Partly, Fails, NotReproduced, NotShown:
		default:
			return invalid(cw, "unknown verdict %q (want %q, %q, %q, %q or %q)", c.Verdict, Holds, Partly, Fails, NotReproduced, NotShown)
		}
		if c.HoldsIn < 0 || c.HoldsIn > c.Seeds || (c.Deterministic && c.Seeds != 1) {
			return invalid(cw, "holds in %d of %d seeds", c.HoldsIn, c.Seeds)
		}
	}
	return nil
}

// WriteSection saves s as indented JSON at path, atomically, after
// validating it (JSON cannot hold the NaN a bad series may carry, and a
// saved section should render).
func WriteSection(path string, s Section) error {
	if err := s.Validate(); err != nil {
		return fmt.Errorf("reports: write %s: %w", path, err)
	}
	data, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return fmt.Errorf("reports: write %s: %w", path, err)
	}
	data = append(data, '\n')
	if err := atomicfile.WriteBytes(path, data); err != nil {
		return fmt.Errorf("reports: write %s: %w", path, err)
	}
	return nil
}

// ReadSection loads a section saved by WriteSection. Unknown fields,
// trailing data and invalid content (an unknown series kind, say) are
// errors naming the file and the faulty part.
func ReadSection(path string) (Section, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Section{}, fmt.Errorf("reports: %w", err)
	}
	var s Section
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		return Section{}, fmt.Errorf("reports: read %s: %w", path, err)
	}
	if err := dec.Decode(&struct{}{}); err != io.EOF {
		return Section{}, fmt.Errorf("reports: read %s: data after the section", path)
	}
	if err := s.Validate(); err != nil {
		return Section{}, fmt.Errorf("reports: read %s: %w", path, err)
	}
	return s, nil
}
