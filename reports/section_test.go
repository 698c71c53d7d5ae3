package reports

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestSectionRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "fig3.json")
	want := sampleSection()
	if err := WriteSection(path, want); err != nil {
		t.Fatal(err)
	}
	got, err := ReadSection(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("round trip changed the section:\ngot  %+v\nwant %+v", got, want)
	}
	data, _ := os.ReadFile(path)
	if !strings.Contains(string(data), "\n  \"name\": \"fig3\",") {
		t.Errorf("not indented JSON:\n%.200s", data)
	}
}

func TestReadSectionErrors(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.json")
	if err := WriteSection(good, sampleSection()); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(good)
	for _, c := range []struct {
		name, from, to string
		want           []string
	}{
		{"unknown kind", `"kind": "stacked"`, `"kind": "area"`, []string{`series 1 "job 1"`, `unknown kind "area"`}},
		{"unknown field", `"x_label"`, `"xlabel"`, []string{`unknown field "xlabel"`}},
		{"trailing data", "\n}\n", "\n}\n{}", []string{"data after the section"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "-")+".json")
			bad := strings.Replace(string(data), c.from, c.to, 1)
			if bad == string(data) {
				t.Fatalf("fixture has no %q", c.from)
			}
			if err := os.WriteFile(path, []byte(bad), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := ReadSection(path)
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range append(c.want, path) {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
		})
	}
	if _, err := ReadSection(filepath.Join(dir, "missing.json")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v, want ErrNotExist", err)
	}
}

func TestWriteSectionRejectsInvalid(t *testing.T) {
	s := sampleSection()
	s.Figures[0].Panels[0].Series[0].Y[0] = -1 / zero()
	path := filepath.Join(t.TempDir(), "bad.json")
	err := WriteSection(path, s)
	if err == nil || !strings.Contains(err.Error(), `series 1 "FIFO"`) {
		t.Errorf("WriteSection = %v, want an error naming the series", err)
	}
	if _, statErr := os.Stat(path); statErr == nil {
		t.Error("file written despite the error")
	}
}

func zero() float64 { return 0 }
