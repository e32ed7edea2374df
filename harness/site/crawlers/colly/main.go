// Command colly-crawler is the small Colly crawler reptest runs as `crawler-colly`
// (harness/site/src/crawl/pinned.rs).
//
// It visits the page given with -start, then every <a href> on the same host and port,
// to depth 2 (the start page and what it links), presenting -agent as its User-Agent.
// Robots.txt is Colly's own business: IgnoreRobotsTxt is set to false (Colly's
// NewCollector defaults it to true), so before the first request to a host Colly fetches
// /robots.txt and parses it with github.com/temoto/robotstxt (FromResponse: 2xx parsed,
// 4xx allow all, 5xx marked disallow all), then matches the group for its UserAgent with
// FindGroup (which does not read the disallow-all mark: on a 5xx Colly fetches all).
//
// Usage: colly-crawler -start http://127.0.0.2:8080/reptest-start.html -agent ReptestBot
package main

import (
	"flag"
	"fmt"
	"net/url"
	"os"
	"time"

	"github.com/gocolly/colly/v2"
)

func main() {
	start := flag.String("start", "", "the start page's URL")
	agent := flag.String("agent", "", "the User-Agent to present (and obey robots.txt for)")
	depth := flag.Int("depth", 2, "the maximum depth (1: the start page only)")
	flag.Parse()
	if *start == "" || *agent == "" {
		fmt.Fprintln(os.Stderr, "usage: colly-crawler -start URL -agent TOKEN [-depth N]")
		os.Exit(2)
	}
	origin, err := url.Parse(*start)
	if err != nil || origin.Host == "" {
		fmt.Fprintf(os.Stderr, "colly-crawler: bad start URL %q\n", *start)
		os.Exit(2)
	}

	c := colly.NewCollector(
		colly.UserAgent(*agent),
		colly.MaxDepth(*depth),
		colly.AllowedDomains(origin.Hostname()),
	)
	// Obey robots.txt: NewCollector's default is to ignore it (and COLLY_IGNORE_ROBOTSTXT
	// in the environment could set it too), so it is set here, last.
	c.IgnoreRobotsTxt = false
	c.SetRequestTimeout(5 * time.Second)

	c.OnHTML("a[href]", func(e *colly.HTMLElement) {
		link, err := url.Parse(e.Request.AbsoluteURL(e.Attr("href")))
		if err != nil || link.Host != origin.Host {
			return
		}
		// Errors (robots.txt forbids it, already visited, too deep) are Colly's verdicts.
		if err := e.Request.Visit(link.String()); err != nil {
			fmt.Fprintf(os.Stderr, "colly-crawler: %s: %v\n", link, err)
		}
	})
	c.OnError(func(r *colly.Response, err error) {
		fmt.Fprintf(os.Stderr, "colly-crawler: %s: status %d: %v\n", r.Request.URL, r.StatusCode, err)
	})

	if err := c.Visit(*start); err != nil {
		fmt.Fprintf(os.Stderr, "colly-crawler: %s: %v\n", *start, err)
	}
	c.Wait()
}
