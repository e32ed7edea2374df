#!/usr/bin/perl
# Runs libwww-perl's robot user agent (LWP::RobotUA, Debian package libwww-perl) for
# reptest's `crawler-lwp-robotua` (harness/site/src/crawl/pinned.rs).
#
# `LWP::RobotUA->new(agent => AGENT, from => ...)` and `delay(0)`, from its documented API:
# the agent is its `User-Agent` and the name WWW::RobotRules matches groups against
# (`is_me`: a group applies when its name is a substring of the agent), no delay between
# requests (default 1 minute), 5 s timeout, no proxy. It gets the start page, then each
# same-origin `<a href>` of it once, in order. Everything about robots.txt is LWP's own:
# before the first request to a host `simple_request` fetches `/robots.txt` and answers
# `403 Forbidden by robots.txt` for each URL the rules refuse (WWW::RobotRules keeps the
# rules of each host and port apart).
#
# Given several start pages (reptest's batches: one loopback site per case, each on an
# origin of its own) it reads them one after another with the same user agent.
#
# Usage: perl lwp_robotua.pl AGENT START_URL [START_URL...]
use strict;
use warnings;
use LWP::RobotUA;
use HTML::LinkExtor;
use URI;

@ARGV >= 2 or die "usage: lwp_robotua.pl AGENT START_URL [START_URL...]\n";
my ($agent, @starts) = @ARGV;
my $ua = LWP::RobotUA->new(agent => $agent, from => 'reptest@example.invalid');
# The constructor takes `delay => 0` as its default of 1 minute (`0 || 1`): set it after.
$ua->delay(0);
$ua->timeout(5);
$ua->env_proxy(0);
read_site($ua, $_) for @starts;

# The start page, then each same-origin page it links, once, in order.
sub read_site {
    my ($ua, $start) = @_;
    my $origin = URI->new($start);
    my $page = $ua->get($start);
    print STDERR "$start: ", $page->status_line, "\n";
    my @links;
    if ($page->is_success) {
        my $extor = HTML::LinkExtor->new(undef, $page->base);
        $extor->parse($page->decoded_content // '');
        my %seen = ($start => 1);
        for my $link ($extor->links) {
            my ($tag, %attrs) = @$link;
            next unless $tag eq 'a' && $attrs{href};
            my $url = URI->new($attrs{href});
            $url->fragment(undef);
            next unless $url->scheme =~ /^https?$/ && $url->host_port eq $origin->host_port;
            push @links, "$url" unless $seen{"$url"}++;
        }
    }
    for my $url (@links) {
        my $response = $ua->get($url);
        print STDERR "$url: ", $response->status_line, "\n";
    }
}
