package formats

import (
	"bytes"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"

	"sojourn/traces"
)

// importAll reads every job of imp, checking each against the trace
// schema's rules as the trace writer would.
func importAll(imp Importer) ([]traces.Job, error) {
	var jobs []traces.Job
	for {
		var j traces.Job
		err := imp.Next(&j)
		if errors.Is(err, io.EOF) {
			if err := (&traces.Trace{Jobs: jobs}).Validate(); err != nil {
				return jobs, err
			}
			return jobs, nil
		}
		if err != nil {
			return jobs, err
		}
		jobs = append(jobs, j)
	}
}

func newImporter(format, data string, opt Options) (Importer, error) {
	if opt.Name == "" {
		opt.Name = "in." + format
	}
	r := strings.NewReader(data)
	switch format {
	case "csv":
		return NewCSV(r, opt)
	case "swf":
		return NewSWF(r, opt)
	case "sls":
		return NewSLS(r, opt)
	case "alibaba2018":
		return NewAlibaba(r, opt, 0)
	}
	panic(format)
}

func importString(format, data string, opt Options) ([]traces.Job, Importer, error) {
	imp, err := newImporter(format, data, opt)
	if err != nil {
		return nil, nil, err
	}
	jobs, err := importAll(imp)
	return jobs, imp, err
}

// badCase is bad input and where the error must point.
type badCase struct {
	name  string
	data  string
	line  int
	field string // a part of the Error's field
	msg   string // a part of the message
}

func checkBad(t *testing.T, format string, cases []badCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := importString(format, c.data, Options{})
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v, want an *Error", err)
			}
			if !errors.Is(err, ErrMalformed) {
				t.Errorf("%v does not wrap ErrMalformed", err)
			}
			if e.File != "in."+format || e.Line != c.line || !strings.Contains(e.Field, c.field) || !strings.Contains(e.Msg, c.msg) {
				t.Errorf("got %q (line %d, field %q), want line %d, field ~%q, message ~%q", err, e.Line, e.Field, c.line, c.field, c.msg)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("a multi-line error: %q", err)
			}
		})
	}
}

// roundTrip exports jobs in format and imports them back.
func roundTrip(t *testing.T, format string, jobs []traces.Job, params map[string]string) []traces.Job {
	t.Helper()
	var buf bytes.Buffer
	i := 0
	_, err := Export(format, &buf, params, func(j *traces.Job) error {
		if i == len(jobs) {
			return io.EOF
		}
		*j = jobs[i]
		i++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	back, _, err := importString(format, buf.String(), Options{})
	if err != nil {
		t.Fatalf("importing the export: %v\n%s", err, buf.String())
	}
	return back
}

func eq(t *testing.T, what string, got, want any) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s: got %v, want %v", what, got, want)
	}
}

// fuzzCheck fails when an importer handed out a job that breaks the
// trace schema's rules (a duplicate job id is for the trace writer to
// refuse, naming the line).
func fuzzCheck(t *testing.T, err error) {
	var re *traces.RowError
	if errors.As(err, &re) && re.Column != traces.ColJobID {
		t.Fatalf("an importer handed out an invalid job: %v", err)
	}
}
