// Package protocol implements the adapter side of reptest's external adapter protocol,
// versions 1 and 2 (harness/PROTOCOL.md): the handshake, a line loop over stdin, base64
// decoding of the body, ASCII-only JSON answers, and errors and panics reported as
// {"id", "error"} answers. Each library's cmd/<name>/main.go supplies either a Check
// function (protocol 1: Main) or a Parse function (protocol 2: MainBatch), which parses
// a request's body once and returns a Matcher asked once per query of the request. A
// library that fetches through its own API also supplies a Fetch function
// (MainFetching): fetch requests (capability `fetches`) name the robots.txt URL on
// reptest's loopback site instead of carrying a body.
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
	// Fetches: the adapter takes fetch requests (set by MainFetching / ServeFetching).
	Fetches bool
}

// Verdict is a library's answer to one request.
type Verdict struct {
	Allowed bool
	// Line is the 1-based line of the deciding rule; 0 means unknown (omitted).
	Line int
}

// Check answers one request with a parser built for it alone.
type Check func(body []byte, agent, url string) (Verdict, error)

// Matcher answers one query against a body parsed once for one request.
type Matcher func(agent, url string) (Verdict, error)

// Parse parses one request's body (protocol 2) into a Matcher for that request alone.
type Parse func(body []byte) (Matcher, error)

// Fetch fetches the robots.txt at robotsURL through the library's own fetching path,
// taking at most timeout, into a Matcher for that request alone.
type Fetch func(robotsURL string, timeout time.Duration) (Matcher, error)

// Request is one decoded request line.
type request struct {
	ID        *int64  `json:"id"`
	RobotsB64 *string `json:"robots_b64"`
	Agent     *string `json:"agent"`
	URL       *string `json:"url"`
	// Queries makes it a batch request (protocol 2), or, with RobotsURL, a fetch request.
	Queries *[]query `json:"queries"`
	// RobotsURL makes it a fetch request (capability `fetches`), with TimeoutMS.
	RobotsURL *string `json:"robots_url"`
	TimeoutMS *int64  `json:"timeout_ms"`
}

type query struct {
	Agent *string `json:"agent"`
	URL   *string `json:"url"`
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

// Handshake returns the handshake line of protocol 1 (without the LF).
func Handshake(info Info) []byte {
	return HandshakeVersion(info, 1)
}

// HandshakeVersion returns the handshake line saying protocol version (without the LF).
func HandshakeVersion(info Info, version int) []byte {
	hs := struct {
		Protocol     int    `json:"protocol"`
		Name         string `json:"name"`
		Version      string `json:"version"`
		Language     string `json:"language"`
		Capabilities struct {
			FullURLs    bool `json:"full_urls"`
			ReportsLine bool `json:"reports_line"`
			Fetches     bool `json:"fetches,omitempty"`
		} `json:"capabilities"`
	}{Protocol: version, Name: info.Name, Version: ModuleVersion(info.Module), Language: "Go"}
	hs.Capabilities.FullURLs = info.FullURLs
	hs.Capabilities.ReportsLine = info.ReportsLine
	hs.Capabilities.Fetches = info.Fetches
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
	out = appendFields(out, v, err)
	return append(out, '}')
}

// appendFields appends `,"error":…` or `,"verdict":…[,"line":…]`.
func appendFields(out []byte, v Verdict, err error) []byte {
	if err != nil {
		msg, merr := json.Marshal(err.Error())
		if merr != nil {
			msg = []byte(`"unprintable error"`)
		}
		out = append(out, `,"error":`...)
		return append(out, ASCII(msg)...)
	}
	if v.Allowed {
		out = append(out, `,"verdict":"allowed"`...)
	} else {
		out = append(out, `,"verdict":"disallowed"`...)
	}
	if v.Line > 0 {
		out = append(out, `,"line":`...)
		out = strconv.AppendInt(out, int64(v.Line), 10)
	}
	return out
}

// HandleBatch answers one request line of protocol 2 with parse: a batch request
// (`queries`) gets one `answers` line, a v1 request a v1 answer. The body is parsed
// once per request; a failing parse is an error for every query, a failing check for
// its query only.
func HandleBatch(line []byte, parse Parse) []byte {
	var req request
	if err := json.Unmarshal(line, &req); err != nil {
		return Answer(nil, Verdict{}, fmt.Errorf("bad request line: %v", err))
	}
	if req.ID == nil {
		return Answer(nil, Verdict{}, errors.New("bad request: no integer id"))
	}
	if req.Queries == nil {
		if req.RobotsB64 == nil || req.Agent == nil || req.URL == nil {
			return Answer(req.ID, Verdict{}, errors.New("bad request: robots_b64, agent and url are required"))
		}
	} else if req.RobotsB64 == nil {
		return Answer(req.ID, Verdict{}, errors.New("bad request: robots_b64 is required"))
	}
	body, err := base64.StdEncoding.DecodeString(*req.RobotsB64)
	if err != nil {
		return Answer(req.ID, Verdict{}, fmt.Errorf("bad request: robots_b64: %v", err))
	}
	if req.Queries == nil {
		m, err := safeParse(parse, body)
		if err != nil {
			return Answer(req.ID, Verdict{}, err)
		}
		v, err := safeMatch(m, *req.Agent, *req.URL)
		return Answer(req.ID, v, err)
	}
	queries := *req.Queries
	for _, q := range queries {
		if q.Agent == nil || q.URL == nil {
			return Answer(req.ID, Verdict{}, errors.New("bad request: every query needs agent and url"))
		}
	}
	m, perr := safeParse(parse, body)
	return answers(*req.ID, queries, m, perr)
}

// answers formats the one-line answer of a request of many queries against one parse
// (or one fetch): perr is an error for every query, a failing check for its query only.
func answers(id int64, queries []query, m Matcher, perr error) []byte {
	out := make([]byte, 0, 32+32*len(queries))
	out = append(out, `{"id":`...)
	out = strconv.AppendInt(out, id, 10)
	out = append(out, `,"answers":[`...)
	for i, q := range queries {
		if i > 0 {
			out = append(out, ',')
		}
		var item []byte
		if perr != nil {
			item = appendFields(nil, Verdict{}, perr)
		} else {
			v, err := safeMatch(m, *q.Agent, *q.URL)
			item = appendFields(nil, v, err)
		}
		// appendFields starts with a comma: drop it inside the object.
		out = append(out, '{')
		out = append(out, item[1:]...)
		out = append(out, '}')
	}
	return append(out, ']', '}')
}

// HandleFetching answers one request line of an adapter that fetches: a fetch request
// (`robots_url`) is fetched once with fetch and answered like a batch; any other request
// goes to HandleBatch with parse.
func HandleFetching(line []byte, parse Parse, fetch Fetch) []byte {
	var req request
	if err := json.Unmarshal(line, &req); err != nil || req.RobotsURL == nil {
		return HandleBatch(line, parse)
	}
	if req.ID == nil {
		return Answer(nil, Verdict{}, errors.New("bad request: no integer id"))
	}
	if req.Queries == nil || req.TimeoutMS == nil || *req.TimeoutMS <= 0 {
		return Answer(req.ID, Verdict{}, errors.New("bad request: a fetch request needs queries and a positive timeout_ms"))
	}
	queries := *req.Queries
	for _, q := range queries {
		if q.Agent == nil || q.URL == nil {
			return Answer(req.ID, Verdict{}, errors.New("bad request: every query needs agent and url"))
		}
	}
	m, ferr := safeFetch(fetch, *req.RobotsURL, time.Duration(*req.TimeoutMS)*time.Millisecond)
	return answers(*req.ID, queries, m, ferr)
}

func safeFetch(fetch Fetch, robotsURL string, timeout time.Duration) (m Matcher, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v", p)
		}
	}()
	m, err = fetch(robotsURL, timeout)
	if err == nil && m == nil {
		err = errors.New("the library fetched nothing")
	}
	return m, err
}

func safeParse(parse Parse, body []byte) (m Matcher, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v", p)
		}
	}()
	m, err = parse(body)
	if err == nil && m == nil {
		err = errors.New("the library parsed nothing")
	}
	return m, err
}

func safeMatch(m Matcher, agent, url string) (v Verdict, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v", p)
		}
	}()
	return m(agent, url)
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

// Serve runs protocol 1 on in and out until in ends: the handshake, then one answer
// per request line, in order.
func Serve(in io.Reader, out io.Writer, info Info, check Check) error {
	return serve(in, out, Handshake(info), func(line []byte) []byte { return Handle(line, check) })
}

// ServeBatch runs protocol 2 on in and out until in ends: the handshake, then one
// answer line per request line (a batch's answers on one line), in order.
func ServeBatch(in io.Reader, out io.Writer, info Info, parse Parse) error {
	return serve(in, out, HandshakeVersion(info, 2), func(line []byte) []byte { return HandleBatch(line, parse) })
}

// ServeFetching runs protocol 2 with the capability `fetches` on in and out until in
// ends: fetch requests go to fetch, every other request to parse.
func ServeFetching(in io.Reader, out io.Writer, info Info, parse Parse, fetch Fetch) error {
	info.Fetches = true
	return serve(in, out, HandshakeVersion(info, 2), func(line []byte) []byte { return HandleFetching(line, parse, fetch) })
}

func serve(in io.Reader, out io.Writer, handshake []byte, handle func([]byte) []byte) error {
	o := newOutput(out)
	if err := o.WriteLine(handshake); err != nil {
		return err
	}
	o.Flush()
	r := bufio.NewReaderSize(in, 1<<20)
	for {
		line, rerr := r.ReadBytes('\n')
		line = bytes.TrimRight(line, "\r\n")
		if len(bytes.TrimSpace(line)) > 0 {
			if err := o.WriteLine(handle(line)); err != nil {
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

// Main serves protocol 1 on stdin/stdout and exits; for cmd/<name>/main.go.
func Main(info Info, check Check) {
	if err := Serve(os.Stdin, os.Stdout, info, check); err != nil {
		fmt.Fprintf(os.Stderr, "%s adapter: %v\n", info.Name, err)
		os.Exit(1)
	}
}

// MainBatch serves protocol 2 on stdin/stdout and exits; for cmd/<name>/main.go of a
// library that parses once and checks many.
func MainBatch(info Info, parse Parse) {
	if err := ServeBatch(os.Stdin, os.Stdout, info, parse); err != nil {
		fmt.Fprintf(os.Stderr, "%s adapter: %v\n", info.Name, err)
		os.Exit(1)
	}
}

// MainFetching serves protocol 2 with the capability `fetches` on stdin/stdout and
// exits; for cmd/<name>/main.go of a library that parses once and also fetches itself.
func MainFetching(info Info, parse Parse, fetch Fetch) {
	if err := ServeFetching(os.Stdin, os.Stdout, info, parse, fetch); err != nil {
		fmt.Fprintf(os.Stderr, "%s adapter: %v\n", info.Name, err)
		os.Exit(1)
	}
}
