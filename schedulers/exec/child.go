package exec

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	osexec "os/exec"
	"sync/atomic"
	"syscall"
	"time"
)

// child is the policy's process and the two pipes to it. Lines go out
// through a buffered writer, flushed once per message; lines come back
// through a buffered reader whose pipe has a read deadline, so that a
// silent child fails the run instead of hanging it. The deadline is the
// only use of the wall clock, and only on the failure path.
type child struct {
	cmd     *osexec.Cmd
	in      *os.File // our end of the child's stdin
	out     *os.File // our end of the child's stdout
	w       *bufio.Writer
	r       *bufio.Reader
	timeout time.Duration
	// watchdog kills the child when a read has waited for the timeout;
	// expired then says so.
	watchdog *time.Timer
	expired  atomic.Bool
	// waited delivers the child's exit status once it has exited and been
	// reaped; exited says it has.
	waited  chan error
	exited  atomic.Bool
	done    bool
	exitErr error
}

// startChild starts argv with its stdin and stdout piped to us and its
// stderr passed to stderr, in a process group of its own so that ending
// it ends whatever it started.
func startChild(argv []string, stderr io.Writer, timeout time.Duration) (*child, error) {
	cr, in, err := blockingPipe()
	if err != nil {
		return nil, err
	}
	out, cw, err := blockingPipe()
	if err != nil {
		cr.Close()
		in.Close()
		return nil, err
	}
	cmd := osexec.Command(argv[0], argv[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = cr, cw, stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	err = cmd.Start()
	cr.Close()
	cw.Close()
	if err != nil {
		in.Close()
		out.Close()
		return nil, err
	}
	c := &child{cmd: cmd, in: in, out: out, timeout: timeout, waited: make(chan error, 1),
		w: bufio.NewWriterSize(in, 64<<10), r: bufio.NewReaderSize(out, maxLine)}
	c.watchdog = time.AfterFunc(time.Hour, c.expire)
	c.watchdog.Stop()
	// Once the child exits, whatever it started goes too: a grandchild
	// holding the child's stdout would otherwise keep a read waiting
	// until the timeout, and the exit would be reported as silence.
	go func() {
		err := cmd.Wait()
		c.exited.Store(true)
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		c.waited <- err
	}()
	return c, nil
}

// pending reports whether the child has sent bytes not yet read: after a
// decision ended, they are lines nobody asked for.
func (c *child) pending() bool {
	if c.r.Buffered() > 0 {
		return true
	}
	return unreadBytes(c.out) > 0
}

// maxLine is the longest line the engine reads from the child.
const maxLine = 1 << 20

// blockingPipe is os.Pipe with both ends in blocking mode: a read is one
// system call, with no round through the runtime's poller, which halves
// the cost of a decision. The watchdog stands in for read deadlines.
func blockingPipe() (r, w *os.File, err error) {
	var p [2]int
	if err := syscall.Pipe2(p[:], syscall.O_CLOEXEC); err != nil {
		return nil, nil, os.NewSyscallError("pipe2", err)
	}
	return os.NewFile(uintptr(p[0]), "|0"), os.NewFile(uintptr(p[1]), "|1"), nil
}

// expire runs when the child has been silent for the timeout: it kills the
// child, which ends the read that waits for it.
func (c *child) expire() {
	c.expired.Store(true)
	syscall.Kill(-c.cmd.Process.Pid, syscall.SIGKILL)
}

// send writes one message (a line ending in '\n') and flushes it.
func (c *child) send(line []byte) error {
	if _, err := c.w.Write(line); err != nil {
		return c.gone(err)
	}
	if err := c.w.Flush(); err != nil {
		return c.gone(err)
	}
	return nil
}

// readLine returns the child's next line without its '\n'. The slice is
// the reader's: it is valid until the next read.
func (c *child) readLine() ([]byte, error) {
	// The watchdog is armed only when the read may wait for the child.
	buf, _ := c.r.Peek(c.r.Buffered())
	armed := bytes.IndexByte(buf, '\n') < 0
	if armed {
		c.watchdog.Reset(c.timeout)
	}
	line, err := c.r.ReadSlice('\n')
	if armed {
		c.watchdog.Stop()
	}
	switch {
	case c.expired.Load():
		c.stop(time.Minute)
		return nil, fmt.Errorf("no answer within %v (the timeout, exec.timeout)", c.timeout)
	case err == nil:
		return line[:len(line)-1], nil
	case errors.Is(err, bufio.ErrBufferFull):
		return nil, fmt.Errorf("a line longer than %d bytes", c.r.Size())
	}
	return nil, c.gone(err)
}

// gone explains a failed read or write: the child has exited (its status
// then says how) or closed its pipe.
func (c *child) gone(err error) error {
	if !errors.Is(err, io.EOF) && !errors.Is(err, syscall.EPIPE) && !errors.Is(err, os.ErrClosed) {
		return err
	}
	c.stop(time.Second)
	if c.exitErr != nil {
		return fmt.Errorf("the policy's process exited (%v)", c.exitErr)
	}
	return errors.New("the policy's process closed its output or exited")
}

// stop ends the child: its stdin closes, which tells a well-behaved child
// to exit; after grace its process group is killed. Either way it is
// reaped before stop returns. The exit status, if not a success, is kept
// in exitErr. stop may be called more than once.
func (c *child) stop(grace time.Duration) {
	if c.done {
		return
	}
	c.done = true
	c.in.Close()
	var err error
	select {
	case err = <-c.waited:
	case <-time.After(grace):
		syscall.Kill(-c.cmd.Process.Pid, syscall.SIGKILL)
		err = <-c.waited
		if err == nil {
			err = errors.New("killed")
		}
	}
	c.out.Close()
	c.exitErr = err
}

// kill ends the child at once (the run has failed) and reaps it.
func (c *child) kill() {
	if c.done {
		return
	}
	syscall.Kill(-c.cmd.Process.Pid, syscall.SIGKILL)
	c.stop(time.Minute)
}
