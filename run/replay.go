package run

import (
	"io"
	"time"

	"sojourn/replay"
	"sojourn/results"
	"sojourn/schedulers"
	"sojourn/traces"
)

// Options say how Replay writes a cell and what it calls around the
// replay.
type Options struct {
	// Format is the result tables' format; Parquet and CSV files are
	// converted from the Arrow files once the set is committed.
	Format results.Format
	// BeforeReplay and AfterReplay, if set, are called just before the
	// policy starts and just after the engine runs, around the replay
	// alone (not reading the trace's first jobs nor writing jobs.arrow):
	// bench replay's CPU profile. AfterReplay is called whether the
	// replay failed or not, once BeforeReplay was.
	BeforeReplay, AfterReplay func()
	// WatchShuffle measures reduce-slot hoarding during the run
	// (Outcome.Shuffle; replay.ShuffleWatch).
	WatchShuffle bool
	// Named, if set, is called once the policy has started, with the
	// name its results carry (an external policy may declare it only
	// then), before anything is written. It may refuse the name; when
	// Replay's dir is not empty, it returns the directory the results go
	// to in its place: bench replay names each policy's directory after
	// the policy.
	Named func(policy string) (dir string, err error)
}

// Outcome is a replayed cell.
type Outcome struct {
	// Result holds the run's jobs and figures; its segments and occupancy
	// only when the cell was kept in memory (Cell.Keep).
	Result *replay.Result
	// Metadata is the schema metadata of every result file.
	Metadata map[string]string
	// Wall is the wall time of the replay alone: the policy's start and
	// the run, between BeforeReplay and AfterReplay.
	Wall time.Duration
	// Shuffle is the reduce-slot hoarding measured, with WatchShuffle.
	Shuffle *replay.ShuffleWatch
}

// Replay runs cell c and, when dir is not empty, writes its results into
// dir: jobs.arrow, and tasks.arrow and occupancy.arrow as the cell asks.
// The files appear together, once all are complete (see results.Stream);
// a failed run leaves none. Rows not kept in memory go to disk as they
// come: a day-long trace's would take gigabytes.
func Replay(c *Cell, dir string, opt Options) (o *Outcome, err error) {
	sched, err := schedulers.New(c.Policy, c.Options)
	if err != nil {
		return nil, err
	}
	if cl, ok := sched.(io.Closer); ok {
		// A policy with a process of its own (exec) ends it here, and
		// reports what went wrong on its side after the last event.
		defer func() {
			if cerr := cl.Close(); cerr != nil && err == nil {
				o, err = nil, cerr
			}
		}()
	}
	cfg := c.Cluster
	cfg.RecordTasks = (c.Tasks && dir != "") || c.Keep
	cfg.RecordOccupancy = c.Occupancy && (dir != "" || c.Keep)
	tr := c.Trace
	var e *replay.Engine
	if tr != nil {
		e, err = replay.New(tr, sched, cfg)
	} else {
		var src *traces.Reader
		if src, err = traces.Open(c.TracePath); err != nil {
			return nil, err
		}
		defer src.Close()
		tr = &traces.Trace{Params: src.Params()}
		e, err = replay.NewFromSource(src, sched, cfg)
	}
	if err != nil {
		return nil, err
	}
	// The policy starts first, so that it has its name for the metadata,
	// which the result files carry from their first row: an external
	// policy declares it in its handshake. Its start is part of the
	// replay, timed and profiled with the run.
	ended := false
	after := func() {
		if !ended && opt.AfterReplay != nil {
			opt.AfterReplay()
		}
		ended = true
	}
	defer after()
	if opt.BeforeReplay != nil {
		opt.BeforeReplay()
	}
	begin := time.Now()
	if err := e.Start(); err != nil {
		return nil, err
	}
	wall := time.Since(begin)
	md := c.metadata(sched.Name(), e.Config(), tr)
	if opt.Named != nil {
		d, err := opt.Named(sched.Name())
		if err != nil {
			return nil, err
		}
		if dir != "" {
			dir = d
		}
	}
	var stream *results.Stream
	if dir != "" {
		if stream, err = results.NewStream(dir, md, c.Tasks, c.Occupancy); err != nil {
			return nil, err
		}
		if !c.Keep {
			e.StreamRows(stream)
		}
	}
	var watch *replay.ShuffleWatch
	if opt.WatchShuffle {
		cfg := e.Config()
		watch = &replay.ShuffleWatch{ReduceSlots: cfg.Nodes * cfg.ReduceSlots}
		e.ObserveEvents(watch.Observe, watch.Events())
	}
	start := time.Now()
	res, err := e.Run()
	wall += time.Since(start)
	after()
	if stream != nil {
		if err == nil && c.Keep {
			err = writeKept(stream, c, res)
		}
		if err != nil {
			stream.Abort()
			return nil, err
		}
		if err := stream.CommitJobs(res); err != nil {
			return nil, err
		}
		if opt.Format != results.Arrow && opt.Format != "" {
			if err := results.ConvertResultsTo(dir, opt.Format); err != nil {
				return nil, err
			}
		}
	}
	if err != nil {
		return nil, err
	}
	return &Outcome{Result: res, Metadata: md, Wall: wall, Shuffle: watch}, nil
}

// writeKept writes the rows a kept run holds in memory.
func writeKept(s *results.Stream, c *Cell, res *replay.Result) error {
	if c.Tasks {
		if err := s.WriteSegments(&res.Segments); err != nil {
			return err
		}
	}
	if c.Occupancy {
		if err := s.WriteOccupancy(&res.Occupancy); err != nil {
			return err
		}
	}
	return nil
}
