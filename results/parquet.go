package results

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/parquet"
	"github.com/apache/arrow/go/v15/parquet/compress"
	"github.com/apache/arrow/go/v15/parquet/pqarrow"

	"sojourn/internal/atomicfile"
	"sojourn/replay"
)

// Format is the file format of result tables: Arrow IPC (the default,
// what bench itself reads back), Parquet for notebooks and warehouses, or
// CSV for tools that read nothing else.
type Format string

// The result formats.
const (
	Arrow   Format = "arrow"
	Parquet Format = "parquet"
	CSV     Format = "csv"
)

// ParseFormat accepts "arrow", "parquet" or "csv"; "" means Arrow.
func ParseFormat(s string) (Format, error) {
	switch f := Format(s); f {
	case "":
		return Arrow, nil
	case Arrow, Parquet, CSV:
		return f, nil
	}
	return "", fmt.Errorf("format %q: want arrow, parquet or csv", s)
}

// FileName is a result file's name in format f: "jobs.arrow" becomes
// "jobs.parquet" or "jobs.csv".
func (f Format) FileName(arrowName string) string {
	if f == Parquet || f == CSV {
		return strings.TrimSuffix(arrowName, ".arrow") + "." + string(f)
	}
	return arrowName
}

// WriteAllFormat is WriteAll in format f. Parquet and CSV files are
// converted from the Arrow files, which are then removed; every file is
// written atomically.
func WriteAllFormat(dir string, r *replay.Result, md map[string]string, f Format) error {
	if err := WriteAll(dir, r, md); err != nil || f == Arrow {
		return err
	}
	return ConvertResultsTo(dir, f)
}

// ConvertDir replaces every result file (jobs.arrow, tasks.arrow,
// occupancy.arrow) in dir and its subdirectories by its Parquet version.
// Other Arrow files, such as traces, are left alone.
func ConvertDir(dir string) error { return ConvertDirTo(dir, Parquet) }

// ConvertDirTo is ConvertDir to format f.
func ConvertDirTo(dir string, f Format) error {
	return filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		return ConvertResultsTo(path, f)
	})
}

// ConvertResults replaces the result files directly in dir (not in its
// subdirectories) by their Parquet versions.
func ConvertResults(dir string) error { return ConvertResultsTo(dir, Parquet) }

// ConvertResultsTo replaces the result files directly in dir by their
// versions in format f (nothing to do for Arrow).
func ConvertResultsTo(dir string, f Format) error {
	convert := map[Format]func(src, dst string) error{Parquet: ToParquet, CSV: ToCSV}[f]
	if convert == nil {
		return nil
	}
	for _, name := range []string{JobsFile, TasksFile, OccupancyFile} {
		src := filepath.Join(dir, name)
		if _, err := os.Stat(src); os.IsNotExist(err) {
			continue
		}
		if err := convert(src, filepath.Join(dir, f.FileName(name))); err != nil {
			return err
		}
		if err := os.Remove(src); err != nil {
			return err
		}
	}
	return nil
}

// ToParquet converts the Arrow IPC file src into the Parquet file dst,
// written atomically. Columns keep their types (categories stay
// dictionary-encoded), the schema metadata becomes the file's key-value
// metadata, and the Arrow schema is stored too (ARROW:schema), so pandas,
// polars and DuckDB read the same table as from src. Pages are
// Snappy-compressed, one row group per 65,536 rows.
func ToParquet(src, dst string) (err error) {
	defer recoverCorruptErr(src, &err)
	r, close, err := openArrow(src)
	if err != nil {
		return err
	}
	defer close()
	// The root is REQUIRED, as parquet-mr and current Arrow C++ write it:
	// the Go writer's default (REPEATED, from early parquet-cpp) misleads
	// some readers into expecting repetition levels.
	props := parquet.NewWriterProperties(parquet.WithCompression(compress.Codecs.Snappy),
		parquet.WithDictionaryDefault(true), parquet.WithRootRepetition(parquet.Repetitions.Required))
	aprops := pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema())
	err = atomicfile.Write(dst, func(out *os.File) error {
		// The Parquet writer closes a sink it can; atomicfile closes the file.
		w, err := pqarrow.NewFileWriter(r.Schema(), struct{ io.Writer }{out}, props, aprops)
		if err != nil {
			return err
		}
		// A batch at a time, so that memory holds one: each batch (of
		// batchRows rows, as written) becomes row groups of batchRows rows.
		for i := 0; i < r.NumRecords(); i++ {
			rec, err := r.Record(i)
			if err != nil {
				return fmt.Errorf("%s: record batch %d: %w", src, i, err)
			}
			tbl := array.NewTableFromRecords(r.Schema(), []arrow.Record{rec})
			err = w.WriteTable(tbl, batchRows)
			tbl.Release()
			if err != nil {
				return err
			}
		}
		if r.NumRecords() == 0 { // one empty row group, as for an empty batch
			tbl := array.NewTableFromRecords(r.Schema(), nil)
			defer tbl.Release()
			if err := w.WriteTable(tbl, batchRows); err != nil {
				return err
			}
		}
		return w.Close()
	})
	if err != nil {
		return fmt.Errorf("%s: %w", dst, err)
	}
	return nil
}
