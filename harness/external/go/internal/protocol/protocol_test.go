package protocol

import (
	"bufio"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"
)

func TestASCII(t *testing.T) {
	in, _ := json.Marshal("é\u2028😀<\x00\r")
	got := string(ASCII(in))
	want := `"\u00e9\u2028\ud83d\ude00\u003c\u0000\r"`
	if got != want {
		t.Fatalf("ASCII = %s, want %s", got, want)
	}
}

func TestAnswer(t *testing.T) {
	id := int64(17)
	for _, c := range []struct {
		v    Verdict
		err  error
		want string
	}{
		{Verdict{Allowed: true}, nil, `{"id":17,"verdict":"allowed"}`},
		{Verdict{Line: 2}, nil, `{"id":17,"verdict":"disallowed","line":2}`},
		{Verdict{}, errors.New("bad\n\"é\""), `{"id":17,"error":"bad\n\"\u00e9\""}`},
	} {
		if got := string(Answer(&id, c.v, c.err)); got != c.want {
			t.Errorf("Answer = %s, want %s", got, c.want)
		}
	}
	if got := string(Answer(nil, Verdict{}, errors.New("x"))); got != `{"id":null,"error":"x"}` {
		t.Errorf("Answer(nil) = %s", got)
	}
}

// fake allows every URL that does not contain the body's first line; it panics on "panic".
func fake(body []byte, agent, url string) (Verdict, error) {
	s := string(body)
	switch {
	case s == "panic":
		panic("boom")
	case s == "fail":
		return Verdict{}, errors.New("failed: é")
	}
	return Verdict{Allowed: !strings.Contains(url, strings.SplitN(s, "\n", 2)[0])}, nil
}

func req(id int, body, agent, url string) string {
	b, _ := json.Marshal(map[string]interface{}{
		"id": id, "robots_b64": base64.StdEncoding.EncodeToString([]byte(body)), "agent": agent, "url": url,
	})
	return string(b) + "\n"
}

func TestServe(t *testing.T) {
	big := strings.Repeat("x", 5<<20) // a 5 MB body: about 7 MB of base64 on one line
	input := req(1, "/private\n", "a", "/private/x") +
		req(2, "/private\n", "a", "/public") +
		"\n" + // blank lines are skipped
		req(3, "panic", "a", "/") +
		req(4, "fail", "a", "/") +
		"{not json}\n" +
		`{"id": 6, "robots_b64": "***", "agent": "a", "url": "/"}` + "\r\n" +
		req(7, big, "a", "/y") +
		strings.TrimSuffix(req(8, "/z", "a", "/z"), "\n") // last line without LF
	var out strings.Builder
	if err := Serve(strings.NewReader(input), &out, Info{Name: "fake", Module: "none"}, fake); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	want := []string{
		`{"protocol":1,"name":"fake","version":"unknown","language":"Go","capabilities":{"full_urls":false,"reports_line":false}}`,
		`{"id":1,"verdict":"disallowed"}`,
		`{"id":2,"verdict":"allowed"}`,
		`{"id":3,"error":"panic: boom"}`,
		`{"id":4,"error":"failed: \u00e9"}`,
		`{"id":null,"error":"bad request line: *`,
		`{"id":6,"error":"bad request: robots_b64: *`,
		`{"id":7,"verdict":"allowed"}`,
		`{"id":8,"verdict":"disallowed"}`,
	}
	if len(lines) != len(want) {
		t.Fatalf("got %d lines, want %d:\n%s", len(lines), len(want), out.String())
	}
	for i := range want {
		if prefix, ok := strings.CutSuffix(want[i], "*"); ok && strings.HasPrefix(lines[i], prefix) {
			continue
		}
		if lines[i] != want[i] {
			t.Errorf("line %d = %s\nwant %s", i, lines[i], want[i])
		}
	}
}

// TestFlushWhenIdle checks that an answer reaches the reader while the adapter waits for
// the next request (no buffering across an idle input).
func TestFlushWhenIdle(t *testing.T) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- Serve(inR, outW, Info{Name: "fake"}, fake); outW.Close() }()
	answers := bufio.NewReader(outR)
	readLine := func() string {
		ch := make(chan string, 1)
		go func() { l, _ := answers.ReadString('\n'); ch <- l }()
		select {
		case l := <-ch:
			return l
		case <-time.After(5 * time.Second):
			t.Fatal("no answer within 5 s")
			return ""
		}
	}
	readLine() // handshake
	for i := 1; i <= 3; i++ {
		if _, err := io.WriteString(inW, req(i, "/p", "a", "/p")); err != nil {
			t.Fatal(err)
		}
		if got, want := readLine(), fmt.Sprintf(`{"id":%d,"verdict":"disallowed"}`+"\n", i); got != want {
			t.Fatalf("answer %q, want %q", got, want)
		}
	}
	inW.Close()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// fakeParse parses like fake, counting its parses; the matcher panics for agent "panic".
func fakeParse(parses *int) Parse {
	return func(body []byte) (Matcher, error) {
		*parses++
		s := string(body)
		switch s {
		case "panic":
			panic("parse boom")
		case "fail":
			return nil, errors.New("cannot parse")
		}
		return func(agent, url string) (Verdict, error) {
			if agent == "panic" {
				panic("check boom")
			}
			if agent == "fail" {
				return Verdict{}, errors.New("check failed")
			}
			return Verdict{Allowed: !strings.Contains(url, strings.SplitN(s, "\n", 2)[0]), Line: *parses}, nil
		}, nil
	}
}

func batchReq(id int, body string, queries ...[2]string) string {
	qs := []map[string]string{}
	for _, q := range queries {
		qs = append(qs, map[string]string{"agent": q[0], "url": q[1]})
	}
	b, _ := json.Marshal(map[string]interface{}{
		"id": id, "robots_b64": base64.StdEncoding.EncodeToString([]byte(body)), "queries": qs,
	})
	return string(b) + "\n"
}

func TestServeBatch(t *testing.T) {
	input := batchReq(1, "/private\n", [2]string{"a", "/private/x"}, [2]string{"fail", "/"},
		[2]string{"a", "/public"}, [2]string{"panic", "/"}) +
		batchReq(2, "fail", [2]string{"a", "/"}, [2]string{"b", "/"}) +
		batchReq(3, "panic", [2]string{"a", "/"}) +
		batchReq(4, "/x") +
		req(5, "/z", "a", "/z") +
		`{"id": 6, "robots_b64": "", "queries": [{"agent": "a"}]}` + "\n" +
		`{"id": 7, "robots_b64": "***", "queries": []}` + "\n"
	var out strings.Builder
	parses := 0
	if err := ServeBatch(strings.NewReader(input), &out, Info{Name: "fake", Module: "none"}, fakeParse(&parses)); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	want := []string{
		`{"protocol":2,"name":"fake","version":"unknown","language":"Go","capabilities":{"full_urls":false,"reports_line":false}}`,
		`{"id":1,"answers":[{"verdict":"disallowed","line":1},{"error":"check failed"},{"verdict":"allowed","line":1},{"error":"panic: check boom"}]}`,
		`{"id":2,"answers":[{"error":"cannot parse"},{"error":"cannot parse"}]}`,
		`{"id":3,"answers":[{"error":"panic: parse boom"}]}`,
		`{"id":4,"answers":[]}`,
		`{"id":5,"verdict":"disallowed","line":5}`,
		`{"id":6,"error":"bad request: every query needs agent and url"}`,
		`{"id":7,"error":"bad request: robots_b64: *`,
	}
	if len(lines) != len(want) {
		t.Fatalf("got %d lines, want %d:\n%s", len(lines), len(want), out.String())
	}
	for i := range want {
		if prefix, ok := strings.CutSuffix(want[i], "*"); ok && strings.HasPrefix(lines[i], prefix) {
			continue
		}
		if lines[i] != want[i] {
			t.Errorf("line %d = %s\nwant %s", i, lines[i], want[i])
		}
	}
	if parses != 5 {
		t.Errorf("%d parses, want one per request that reached the library (5)", parses)
	}
}

// TestServeFetching: the handshake says `fetches`; a fetch request is fetched once and
// answered like a batch, a failed fetch is an error for every query, and body requests
// still go to parse.
func TestServeFetching(t *testing.T) {
	var fetched []string
	fetch := func(robotsURL string, timeout time.Duration) (Matcher, error) {
		fetched = append(fetched, fmt.Sprintf("%s %v", robotsURL, timeout))
		if strings.HasSuffix(robotsURL, "/bad") {
			return nil, errors.New("refused")
		}
		return func(agent, url string) (Verdict, error) {
			return Verdict{Allowed: strings.HasSuffix(url, "/yes")}, nil
		}, nil
	}
	parse := func(body []byte) (Matcher, error) {
		return func(agent, url string) (Verdict, error) { return Verdict{Allowed: true}, nil }, nil
	}
	in := strings.Join([]string{
		`{"id":1,"robots_url":"http://127.0.0.1:1/robots.txt","timeout_ms":1500,"queries":[{"agent":"a","url":"/yes"},{"agent":"a","url":"/no"}]}`,
		`{"id":2,"robots_url":"http://127.0.0.1:1/bad","timeout_ms":100,"queries":[{"agent":"a","url":"/x"}]}`,
		`{"id":3,"robots_url":"u","queries":[]}`,
		`{"id":4,"robots_b64":"","agent":"a","url":"/"}`,
	}, "\n") + "\n"
	var out strings.Builder
	if err := ServeFetching(strings.NewReader(in), &out, Info{Name: "x"}, parse, fetch); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if !strings.Contains(lines[0], `"fetches":true`) || !strings.Contains(lines[0], `"protocol":2`) {
		t.Errorf("handshake %s", lines[0])
	}
	want := []string{
		`{"id":1,"answers":[{"verdict":"allowed"},{"verdict":"disallowed"}]}`,
		`{"id":2,"answers":[{"error":"refused"}]}`,
		`{"id":3,"error":"bad request: a fetch request needs queries and a positive timeout_ms"}`,
		`{"id":4,"verdict":"allowed"}`,
	}
	for i, w := range want {
		if lines[i+1] != w {
			t.Errorf("answer %d: %s, want %s", i+1, lines[i+1], w)
		}
	}
	if len(fetched) != 2 || fetched[0] != "http://127.0.0.1:1/robots.txt 1.5s" {
		t.Errorf("fetched %v", fetched)
	}
	if strings.Contains(string(Handshake(Info{Name: "x"})), "fetches") {
		t.Error("a handshake without Fetches must not mention it")
	}
}
