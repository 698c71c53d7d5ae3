package swim

import (
	"errors"
	"io"
	"reflect"
	"testing"

	"sojourn/traces"
)

// TestGeneratorReusesSlices: jobs drawn one at a time into one reused Job
// are the jobs of Generate.
func TestGeneratorReusesSlices(t *testing.T) {
	cfg := Config{Profile: "fb2009", Seed: 9, Jobs: 300}
	want, err := Generate(cfg)
	if err != nil {
		t.Fatal(err)
	}
	g, err := NewGenerator(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(g.Params(), want.Params) || g.Len() != len(want.Jobs) {
		t.Fatalf("generator params or length differ from Generate's")
	}
	var j traces.Job
	for i := 0; ; i++ {
		err := g.Next(&j)
		if errors.Is(err, io.EOF) {
			if i != len(want.Jobs) {
				t.Fatalf("%d jobs, want %d", i, len(want.Jobs))
			}
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(j, want.Jobs[i]) {
			t.Fatalf("job %d differs from Generate's", i)
		}
	}
}

// TestWholeSource: Whole takes every job of the source at its own submit
// time, or the first Jobs of them.
func TestWholeSource(t *testing.T) {
	src := syntheticSource(t)
	tr, err := Generate(Config{Source: src, Whole: true, OriginalNodes: 100})
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Jobs) != len(src.Records) {
		t.Fatalf("%d jobs from a source of %d", len(tr.Jobs), len(src.Records))
	}
	for i, r := range src.Records {
		if tr.Jobs[i].Submit != r.Submit || tr.Jobs[i].Name != r.ID || tr.Jobs[i].MapInputBytes != max(r.InputBytes, 0) {
			t.Fatalf("job %d is %+v, source row %+v", i, tr.Jobs[i], r)
		}
	}
	if tr.Params["generator.sampler"] == "" || tr.Params["generator.sampler.samples"] != "" {
		t.Errorf("params do not say the source was taken whole: %v", tr.Params)
	}
	tr, err = Generate(Config{Source: src, Whole: true, OriginalNodes: 100, Jobs: 10})
	if err != nil || len(tr.Jobs) != 10 {
		t.Fatalf("Whole with Jobs 10: %d jobs, %v", len(tr.Jobs), err)
	}
	for _, bad := range []Config{
		{Profile: "fb2009", Whole: true},
		{Source: src, Whole: true, OriginalNodes: 100, Sampler: Sampler{Samples: 2}},
	} {
		if _, err := Generate(bad); !errors.Is(err, ErrConfig) {
			t.Errorf("%+v: %v, want ErrConfig", bad, err)
		}
	}
}
