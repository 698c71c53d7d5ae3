package results

import (
	"bufio"
	"encoding/csv"
	"fmt"
	"os"
	"strconv"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"

	"sojourn/internal/atomicfile"
)

// ToCSV converts the Arrow IPC result file src into the CSV file dst,
// written atomically: RFC 4180 (CRLF line ends, fields quoted only when
// they must be), a header row of the column names, one row per table row.
// Numbers are written in full (floats in the shortest form that reads back
// to the same value), a null is an empty field, a dictionary column its
// string. CSV has no place for the schema metadata: the jobs table's
// policy, seed and workload columns say which run a row belongs to.
func ToCSV(src, dst string) (err error) {
	defer recoverCorruptErr(src, &err)
	r, close, err := openArrow(src)
	if err != nil {
		return err
	}
	defer close()
	err = atomicfile.Write(dst, func(out *os.File) error {
		bw := bufio.NewWriterSize(out, 1<<16)
		w := csv.NewWriter(bw)
		w.UseCRLF = true
		fields := r.Schema().Fields()
		row := make([]string, len(fields))
		for i, fd := range fields {
			row[i] = fd.Name
		}
		if err := w.Write(row); err != nil {
			return err
		}
		for b := 0; b < r.NumRecords(); b++ {
			rec, err := r.Record(b)
			if err != nil {
				return fmt.Errorf("%s: record batch %d: %w", src, b, err)
			}
			cols := make([]func(int) string, rec.NumCols())
			for c := range cols {
				if cols[c], err = csvColumn(rec.Column(c)); err != nil {
					return fmt.Errorf("%s: column %s: %w", src, fields[c].Name, err)
				}
			}
			for i := 0; i < int(rec.NumRows()); i++ {
				for c, col := range cols {
					row[c] = col(i)
				}
				if err := w.Write(row); err != nil {
					return err
				}
			}
		}
		w.Flush()
		if err := w.Error(); err != nil {
			return err
		}
		return bw.Flush()
	})
	if err != nil {
		return fmt.Errorf("%s: %w", dst, err)
	}
	return nil
}

// csvColumn returns the text of row i of a, "" for a null.
func csvColumn(a arrow.Array) (func(int) string, error) {
	var text func(int) string
	switch a := a.(type) {
	case *array.Int8:
		text = func(i int) string { return strconv.FormatInt(int64(a.Value(i)), 10) }
	case *array.Int32:
		text = func(i int) string { return strconv.FormatInt(int64(a.Value(i)), 10) }
	case *array.Int64:
		text = func(i int) string { return strconv.FormatInt(a.Value(i), 10) }
	case *array.Uint64:
		text = func(i int) string { return strconv.FormatUint(a.Value(i), 10) }
	case *array.Float64:
		text = func(i int) string { return strconv.FormatFloat(a.Value(i), 'g', -1, 64) }
	case *array.String:
		text = a.Value
	case *array.Dictionary:
		dict, ok := a.Dictionary().(*array.String)
		if !ok {
			return nil, fmt.Errorf("dictionary of %s, want strings", a.Dictionary().DataType())
		}
		text = func(i int) string { return dict.Value(a.GetValueIndex(i)) }
	default:
		return nil, fmt.Errorf("type %s has no CSV form", a.DataType())
	}
	return func(i int) string {
		if a.IsNull(i) {
			return ""
		}
		return text(i)
	}, nil
}
