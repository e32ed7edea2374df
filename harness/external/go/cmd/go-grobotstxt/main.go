// Command go-grobotstxt is reptest's protocol-v1 adapter for github.com/jimsmart/grobotstxt,
// a Go port of Google's robots.txt parser. The library takes absolute URLs.
package main

import (
	"github.com/jimsmart/grobotstxt"

	"reptest/adapters/internal/protocol"
)

var info = protocol.Info{
	Name:        "github.com/jimsmart/grobotstxt",
	Module:      "github.com/jimsmart/grobotstxt",
	FullURLs:    true,
	ReportsLine: true,
}

// Check runs a fresh matcher: AgentAllowed(robotsBody, userAgent, uri). The library
// itself answers false (disallowed) for a URL that Go's url.Parse rejects.
func Check(body []byte, agent, url string) (protocol.Verdict, error) {
	robots := string(body)
	m := grobotstxt.NewRobotsMatcher()
	allowed := m.AgentAllowed(robots, agent, url)
	v := protocol.Verdict{Allowed: allowed}
	if line := m.MatchingLine(); line > 0 && decides(robots, line, allowed) {
		v.Line = line
	}
	return v, nil
}

// decides reports whether line holds a rule that can have decided the verdict: an Allow
// for allowed, a non-empty Disallow for disallowed. MatchingLine also names an empty
// "Disallow:" (a match of priority 0) when no rule decided and the default allow applies.
func decides(robots string, line int, allowed bool) bool {
	k := &lineKind{line: line}
	grobotstxt.Parse(robots, k)
	if allowed {
		return k.allow
	}
	return k.disallow
}

// lineKind is a grobotstxt.ParseHandler that notes what one line holds.
type lineKind struct {
	line            int
	allow, disallow bool
}

func (k *lineKind) HandleRobotsStart()                      {}
func (k *lineKind) HandleRobotsEnd()                        {}
func (k *lineKind) HandleUserAgent(int, string)             {}
func (k *lineKind) HandleSitemap(int, string)               {}
func (k *lineKind) HandleUnknownAction(int, string, string) {}
func (k *lineKind) HandleAllow(line int, value string) {
	if line == k.line {
		k.allow = true
	}
}
func (k *lineKind) HandleDisallow(line int, value string) {
	if line == k.line && value != "" {
		k.disallow = true
	}
}

func main() { protocol.Main(info, Check) }
