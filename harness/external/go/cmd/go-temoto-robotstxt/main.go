// Command go-temoto-robotstxt is reptest's protocol-v2 adapter for
// github.com/temoto/robotstxt. The library matches paths, not URLs. It also fetches
// (capability `fetches`): net/http gets the robots.txt, FromResponse reads it.
package main

import (
	"net/http"
	"time"

	"github.com/temoto/robotstxt"

	"reptest/adapters/internal/protocol"
)

var info = protocol.Info{
	Name:     "github.com/temoto/robotstxt",
	Module:   "github.com/temoto/robotstxt",
	FullURLs: false, // Group.Test takes a path (reptest sends path and query)
}

// Parse parses body once, as a robots.txt fetched with status 200; the matcher finds the
// agent's group and tests the path. A parse error (the library rejects e.g. a Disallow
// before any User-agent) is an error for every query, not a verdict.
func Parse(body []byte) (protocol.Matcher, error) {
	robots, err := robotstxt.FromStatusAndBytes(200, body)
	if err != nil {
		return nil, err
	}
	return func(agent, path string) (protocol.Verdict, error) {
		return protocol.Verdict{Allowed: robots.FindGroup(agent).Test(path)}, nil
	}, nil
}

// Fetch gets robotsURL with net/http and hands the response to the library's
// FromResponse, which reads the body and decides from the status (FromStatusAndBytes:
// 2xx parsed, 4xx allow all, 5xx disallow all, any other status an error). Each query
// is then RobotsData.TestAgent(path, agent), the library's check that honours those
// allow-all and disallow-all outcomes: FindGroup(agent).Test(path), which Parse uses
// for a body, ignores them (after a 5xx it finds no group and allows everything).
//
// The adapter's part: the client. It is net/http's default one (redirects followed up to
// 10, then an error) with a timeout for the whole exchange (reptest's timeout_ms, since
// the default client has none) and no proxy (the site is on loopback). An error from
// net/http (refused, reset, timed out, too many redirects) is answered as that error:
// temoto has no verdict for a fetch without a response.
func Fetch(robotsURL string, timeout time.Duration) (protocol.Matcher, error) {
	client := &http.Client{Timeout: timeout, Transport: &http.Transport{Proxy: nil}}
	res, err := client.Get(robotsURL)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	robots, err := robotstxt.FromResponse(res)
	if err != nil {
		return nil, err
	}
	return func(agent, path string) (protocol.Verdict, error) {
		return protocol.Verdict{Allowed: robots.TestAgent(path, agent)}, nil
	}, nil
}

// Check answers one query with a parse of its own (Parse, then the matcher).
func Check(body []byte, agent, path string) (protocol.Verdict, error) {
	m, err := Parse(body)
	if err != nil {
		return protocol.Verdict{}, err
	}
	return m(agent, path)
}

func main() { protocol.MainFetching(info, Parse, Fetch) }
