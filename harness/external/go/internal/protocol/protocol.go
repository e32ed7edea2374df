// Package protocol implements the adapter side of reptest's external adapter protocol,
// version 1 (harness/PROTOCOL.md): the handshake, a line loop over stdin, base64
// decoding of the body, ASCII-only JSON answers, and errors and panics reported as
// {"id", "error"} answers. Each library's cmd/<name>/main.go supplies a Check function.
package protocol

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strconv"
	"sync"
	"time"
	"unicode/utf8"
)

// Info describes the library for the handshake.
type Info struct {
	Name string
	// Module is the Go module path whose version (from the build info) is reported.
	Module string
	// FullURLs: the library takes absolute URLs (false: reptest sends path and query).
	FullURLs bool
	// ReportsLine: answers carry the deciding rule's 1-based line when known.
	ReportsLine bool
}

// Verdict is a library's answer to one request.
type Verdict struct {
	Allowed bool
	// Line is the 1-based line of the deciding rule; 0 means unknown (omitted).
	Line int
}

// Check answers one request with a parser built for it alone.
type Check func(body []byte, agent, url string) (Verdict, error)

// Request is one decoded request line.
type request struct {
	ID        *int64  `json:"id"`
	RobotsB64 *string `json:"robots_b64"`
	Agent     *string `json:"agent"`
	URL       *string `json:"url"`
}

// ModuleVersion returns the version of module path linked into this binary, read from
// the build info at run time, or "unknown".
func ModuleVersion(path string) string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	for _, dep := range bi.Deps {
		if dep.Path == path {
			if dep.Replace != nil && dep.Replace.Version != "" {
				return dep.Replace.Version
			}
			return dep.Version
		}
	}
	return "unknown"
}

// Handshake returns the handshake line (without the LF).
func Handshake(info Info) []byte {
	hs := struct {
		Protocol     int    `json:"protocol"`
		Name         string `json:"name"`
		Version      string `json:"version"`
		Language     string `json:"language"`
		Capabilities struct {
			FullURLs    bool `json:"full_urls"`
			ReportsLine bool `json:"reports_line"`
		} `json:"capabilities"`
	}{Protocol: 1, Name: info.Name, Version: ModuleVersion(info.Module), Language: "Go"}
	hs.Capabilities.FullURLs = info.FullURLs
	hs.Capabilities.ReportsLine = info.ReportsLine
	out, err := json.Marshal(hs)
	if err != nil {
		panic(err) // cannot happen for this struct
	}
	return ASCII(out)
}

// ASCII rewrites JSON text so that it is pure ASCII: every non-ASCII character is
// escaped as \uXXXX (surrogate pairs above U+FFFF). Non-ASCII can only occur inside
// JSON strings, so the rewrite keeps the JSON valid. Invalid UTF-8 becomes \ufffd
// (encoding/json already does this for strings it marshals).
func ASCII(js []byte) []byte {
	i := 0
	for i < len(js) && js[i] < utf8.RuneSelf {
		i++
	}
	if i == len(js) {
		return js
	}
	out := make([]byte, 0, len(js)+16)
	out = append(out, js[:i]...)
	for i < len(js) {
		c := js[i]
		if c < utf8.RuneSelf {
			out = append(out, c)
			i++
			continue
		}
		r, w := utf8.DecodeRune(js[i:])
		i += w
		if r >= 0x10000 {
			r -= 0x10000
			out = appendU(out, 0xD800+(r>>10))
			out = appendU(out, 0xDC00+(r&0x3FF))
		} else {
			out = appendU(out, r)
		}
	}
	return out
}

func appendU(out []byte, r rune) []byte {
	const hex = "0123456789abcdef"
	return append(out, '\\', 'u', hex[(r>>12)&0xF], hex[(r>>8)&0xF], hex[(r>>4)&0xF], hex[r&0xF])
}

// Answer formats one answer line (without the LF). A nil id is written as null.
func Answer(id *int64, v Verdict, err error) []byte {
	out := make([]byte, 0, 64)
	out = append(out, `{"id":`...)
	if id == nil {
		out = append(out, "null"...)
	} else {
		out = strconv.AppendInt(out, *id, 10)
	}
	if err != nil {
		msg, merr := json.Marshal(err.Error())
		if merr != nil {
			msg = []byte(`"unprintable error"`)
		}
		out = append(out, `,"error":`...)
		out = append(out, ASCII(msg)...)
	} else {
		if v.Allowed {
			out = append(out, `,"verdict":"allowed"`...)
		} else {
			out = append(out, `,"verdict":"disallowed"`...)
		}
		if v.Line > 0 {
			out = append(out, `,"line":`...)
			out = strconv.AppendInt(out, int64(v.Line), 10)
		}
	}
	return append(out, '}')
}

// Handle decodes one request line and runs check on it, turning failures and panics
// into errors. It returns the answer line (without the LF).
func Handle(line []byte, check Check) []byte {
	var req request
	if err := json.Unmarshal(line, &req); err != nil {
		return Answer(nil, Verdict{}, fmt.Errorf("bad request line: %v", err))
	}
	if req.ID == nil {
		return Answer(nil, Verdict{}, errors.New("bad request: no integer id"))
	}
	if req.RobotsB64 == nil || req.Agent == nil || req.URL == nil {
		return Answer(req.ID, Verdict{}, errors.New("bad request: robots_b64, agent and url are required"))
	}
	body, err := base64.StdEncoding.DecodeString(*req.RobotsB64)
	if err != nil {
		return Answer(req.ID, Verdict{}, fmt.Errorf("bad request: robots_b64: %v", err))
	}
	v, err := safeCheck(check, body, *req.Agent, *req.URL)
	return Answer(req.ID, v, err)
}

func safeCheck(check Check, body []byte, agent, url string) (v Verdict, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v", p)
		}
	}()
	return check(body, agent, url)
}

// flushDelay bounds how long an answer may sit in the output buffer while the adapter
// works on requests that were already pipelined behind it.
const flushDelay = 5 * time.Millisecond

// output is a buffered stdout whose pending answers are flushed when no further complete
// request is buffered on input, or at the latest flushDelay after they were written.
type output struct {
	mu    sync.Mutex
	w     *bufio.Writer
	timer *time.Timer
	err   error
}

func newOutput(w io.Writer) *output {
	o := &output{w: bufio.NewWriterSize(w, 64<<10)}
	o.timer = time.AfterFunc(time.Hour, o.Flush)
	o.timer.Stop()
	return o
}

func (o *output) WriteLine(line []byte) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.err != nil {
		return o.err
	}
	empty := o.w.Buffered() == 0
	if _, err := o.w.Write(line); err != nil {
		o.err = err
		return err
	}
	if err := o.w.WriteByte('\n'); err != nil {
		o.err = err
		return err
	}
	if empty && o.w.Buffered() > 0 {
		o.timer.Reset(flushDelay)
	}
	return nil
}

func (o *output) Flush() {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.timer.Stop()
	if o.err == nil && o.w.Buffered() > 0 {
		o.err = o.w.Flush()
	}
}

func (o *output) Err() error {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.err
}

// Serve runs the protocol on in and out until in ends: the handshake, then one answer
// per request line, in order.
func Serve(in io.Reader, out io.Writer, info Info, check Check) error {
	o := newOutput(out)
	if err := o.WriteLine(Handshake(info)); err != nil {
		return err
	}
	o.Flush()
	r := bufio.NewReaderSize(in, 1<<20)
	for {
		line, rerr := r.ReadBytes('\n')
		line = bytes.TrimRight(line, "\r\n")
		if len(bytes.TrimSpace(line)) > 0 {
			if err := o.WriteLine(Handle(line, check)); err != nil {
				return err
			}
		}
		if rerr != nil {
			o.Flush()
			if rerr == io.EOF {
				return o.Err()
			}
			return rerr
		}
		// Keep answering without a flush only while the next request is already
		// complete in the input buffer; otherwise reptest may be waiting for us.
		if n := r.Buffered(); n == 0 {
			o.Flush()
		} else if next, _ := r.Peek(n); bytes.IndexByte(next, '\n') < 0 {
			o.Flush()
		}
		if err := o.Err(); err != nil {
			return err
		}
	}
}

// Main serves stdin/stdout and exits; for cmd/<name>/main.go.
func Main(info Info, check Check) {
	if err := Serve(os.Stdin, os.Stdout, info, check); err != nil {
		fmt.Fprintf(os.Stderr, "%s adapter: %v\n", info.Name, err)
		os.Exit(1)
	}
}
