package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"reptest/adapters/internal/protocol"
)

func TestCheck(t *testing.T) {
	for _, c := range []struct {
		body, agent, path string
		allowed           bool
	}{
		{"User-agent: foobot\nDisallow: /\n", "foobot", "/page", false},
		{"User-agent: foobot\nDisallow: /\n", "barbot", "/page", true},
		{"User-agent: *\nDisallow: /private\n", "foobot", "/private/x", false},
		{"User-agent: *\nDisallow: /private\n", "foobot", "/public", true},
		{"\xef\xbb\xbfUser-agent: *\r\nDisallow: /a\x00b\r\nDisallow: /\xff\xfe\r\n", "foobot", "/a", true},
		{"", "foobot", "/", true},
	} {
		v, err := Check([]byte(c.body), c.agent, c.path)
		if err != nil {
			t.Errorf("Check(%q, %q, %q): %v", c.body, c.agent, c.path, err)
		} else if v.Allowed != c.allowed {
			t.Errorf("Check(%q, %q, %q) allowed = %v, want %v", c.body, c.agent, c.path, v.Allowed, c.allowed)
		}
	}
	// The library rejects a rule outside any group: an error, never a guessed verdict.
	if _, err := Check([]byte("Disallow: /x\n"), "foobot", "/x"); err == nil {
		t.Error("Check of a rule before any User-agent: want the library's parse error")
	}
}

func TestVersion(t *testing.T) {
	// go test binaries carry the module's dependencies in their build info too.
	if v := protocol.ModuleVersion(info.Module); v != "v1.1.2" {
		t.Errorf("version %q, want the pinned v1.1.2", v)
	}
}

// TestBatch: one parse answers many queries exactly as one parse per query does.
func TestBatch(t *testing.T) {
	body := []byte("User-agent: foobot\nDisallow: /private\nAllow: /private/open\n\nUser-agent: *\nDisallow: /\n")
	m, err := Parse(body)
	if err != nil {
		t.Fatal(err)
	}
	for _, agent := range []string{"foobot", "barbot", "FooBot", ""} {
		for _, path := range []string{"/private/x", "/private/open/y", "/public", "/"} {
			got, err1 := m(agent, path)
			want, err2 := Check(body, agent, path)
			if err1 != nil || err2 != nil || got != want {
				t.Errorf("%q %q: batch %v (%v), single %v (%v)", agent, path, got, err1, want, err2)
			}
		}
	}
	if _, err := Parse([]byte("Disallow: /x\n")); err == nil {
		t.Error("Parse of a rule before any User-agent: want the library's parse error")
	}
}

// TestFetch: net/http fetches from a loopback server (httptest binds 127.0.0.1) and
// FromResponse decides from the status: 2xx rules followed, 4xx (403 included) allow
// all, 5xx disallow all; a refused connection is net/http's error, not a verdict.
func TestFetch(t *testing.T) {
	status := 200
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/moved" {
			http.Redirect(w, r, "/robots.txt", http.StatusMovedPermanently)
			return
		}
		w.WriteHeader(status)
		io.WriteString(w, "User-agent: *\nDisallow: /private\n")
	}))
	defer srv.Close()
	for _, c := range []struct {
		status          int
		path            string
		private, public bool
	}{
		{200, "/robots.txt", false, true},
		{200, "/moved", false, true},
		{404, "/robots.txt", true, true},
		{403, "/robots.txt", true, true},
		{503, "/robots.txt", false, false},
	} {
		status = c.status
		m, err := Fetch(srv.URL+c.path, 2*time.Second)
		if err != nil {
			t.Fatalf("%d %s: %v", c.status, c.path, err)
		}
		private, _ := m("bot", "/private")
		public, _ := m("bot", "/public")
		if private.Allowed != c.private || public.Allowed != c.public {
			t.Errorf("%d %s: private %v public %v, want %v %v", c.status, c.path, private.Allowed, public.Allowed, c.private, c.public)
		}
	}
	closed := httptest.NewServer(http.NotFoundHandler())
	url := closed.URL + "/robots.txt"
	closed.Close()
	if _, err := Fetch(url, time.Second); err == nil {
		t.Error("a refused connection: want net/http's error")
	}
}
