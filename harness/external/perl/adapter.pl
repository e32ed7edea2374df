#!/usr/bin/env perl
# reptest adapter for WWW::RobotRules (Debian libwww-robotrules-perl); speaks
# harness/PROTOCOL.md (protocol 2) on stdin/stdout. Fresh WWW::RobotRules objects for
# every request:
#   WWW::RobotRules->new($agent)->parse($robots_url, $body); ->allowed($url)
# allowed() answers 1 or 0, or -1 when it holds no fresh rules for the URL's host:port
# (reported as an error, never as a verdict).
#
# The library parses for one agent (new($agent); parse keeps only the rules of that
# agent's record) and one robots.txt URL, so a batch request (protocol 2) parses its body
# once per distinct (agent, robots.txt URL) among its queries, and every query of that
# pair asks the same parsed rules; nothing is kept from one request to the next.
use strict;
use warnings;
use JSON::PP ();
use MIME::Base64 ();
use URI ();
use WWW::RobotRules ();

binmode STDIN, ':raw';
binmode STDOUT, ':raw';
$| = 1;

# ascii: every non-ASCII character as \uXXXX (surrogate pairs above U+FFFF); JSON::PP
# escapes control characters itself; canonical: stable key order. Input is ASCII, so
# bytes and characters agree.
my $json = JSON::PP->new->ascii->canonical->allow_nonref;

sub emit { print $json->encode($_[0]), "\n" }

sub message {
    my ($err) = @_;
    $err = "$err";
    $err =~ s/\s+\z//;
    return $err;
}

# JSON::PP is pure Perl and takes seconds over a body of megabytes, long enough for
# reptest's timeout; so the robots_b64 string (base64 characters, "/" possibly escaped as
# "\/") is cut out of the line with one plain regex and only the rest goes to JSON::PP.
# A key of that name inside another string cannot match: its quotes would be escaped.
sub decode_request {
    my ($line) = @_;
    my $b64;
    if ($line =~ s{"robots_b64"\s*:\s*"([A-Za-z0-9+/=\\]*)"}{"robots_b64":""}) {
        $b64 = $1;
        $b64 =~ s{\\/}{/}g;
        return $json->decode($_[0]) if $b64 =~ /\\/;    # another escape: decode it all
    }
    my $req = $json->decode($line);
    # (Unless a later duplicate key overrode the placeholder: the last one wins, as in JSON::PP.)
    $req->{robots_b64} = $b64
        if defined $b64 && ref $req eq 'HASH' && defined $req->{robots_b64} && $req->{robots_b64} eq '';
    return $req;
}

# The verdict for one query, against the rules parsed (once per request) for its agent and
# robots.txt URL, kept in %$parsed; dies with the reason on failure.
sub check {
    my ($parsed, $body, $agent, $url) = @_;
    # The body stays bytes, as LWP hands them over; agent and URL go in as UTF-8 bytes too,
    # so the library compares like with like.
    utf8::encode($agent);
    utf8::encode($url);
    my $robots_url = URI->new_abs('/robots.txt', URI->new($url));
    die "cannot derive a robots.txt URL from <$url>\n" unless $robots_url->can('host');
    my $key = $agent . "\0" . $robots_url->as_string;
    my $rules = $parsed->{$key};
    unless ($rules) {
        $rules = WWW::RobotRules->new($agent);
        $rules->parse($robots_url->as_string, $body);
        $parsed->{$key} = $rules;
    }
    my $allowed = $rules->allowed($url);
    die 'allowed() answered ' . (defined $allowed ? $allowed : 'undef') . ", not 1 or 0\n"
        unless defined $allowed && ($allowed eq '1' || $allowed eq '0');
    return $allowed ? 'allowed' : 'disallowed';
}

sub item {
    my ($parsed, $body, $agent, $url) = @_;
    my $verdict = eval { check($parsed, $body, $agent, $url) };
    return { error => message($@ || 'unknown failure') } unless defined $verdict;
    return { verdict => $verdict };
}

sub answer {
    my ($line) = @_;
    my $req = eval { decode_request($line) };
    return { id => undef, error => 'invalid JSON request: ' . message($@) } unless defined $req;
    return { id => undef, error => 'request is not a JSON object' } unless ref $req eq 'HASH';

    my $id = $req->{id};
    unless (defined $id && !ref $id && $id =~ /\A-?[0-9]+\z/) {
        return { id => undef, error => 'request has no integer id' };
    }
    $id = 0 + $id;
    return batch($id, $req) if exists $req->{queries};
    for my $field (qw(robots_b64 agent url)) {
        my $v = $req->{$field};
        return { id => $id, error => "request field $field is not a string" }
            unless defined $v && !ref $v;
    }
    my $b64 = $req->{robots_b64};
    return { id => $id, error => 'robots_b64 is not padded standard base64' }
        unless $b64 =~ m{\A[A-Za-z0-9+/]*={0,2}\z} && length($b64) % 4 == 0;

    my $body = MIME::Base64::decode_base64($b64);
    return { id => $id, %{ item({}, $body, $req->{agent}, $req->{url}) } };
}

# A batch request (protocol 2): one answer per query, in order.
sub batch {
    my ($id, $req) = @_;
    my $b64     = $req->{robots_b64};
    my $queries = $req->{queries};
    return { id => $id, error => 'request field robots_b64 is not a string' }
        unless defined $b64 && !ref $b64;
    return { id => $id, error => 'request field queries is not an array' }
        unless ref $queries eq 'ARRAY';
    for my $q (@$queries) {
        return { id => $id, error => 'each query must be an object with string agent and url' }
            unless ref $q eq 'HASH'
            && defined $q->{agent} && !ref $q->{agent}
            && defined $q->{url}   && !ref $q->{url};
    }
    return { id => $id, error => 'robots_b64 is not padded standard base64' }
        unless $b64 =~ m{\A[A-Za-z0-9+/]*={0,2}\z} && length($b64) % 4 == 0;
    my $body   = MIME::Base64::decode_base64($b64);
    my %parsed;    # this request's parses only
    return { id => $id, answers => [ map { item(\%parsed, $body, $_->{agent}, $_->{url}) } @$queries ] };
}

emit({
    protocol     => 2,
    name         => 'perl-www-robotrules',
    version      => "$WWW::RobotRules::VERSION",
    language     => 'Perl',
    capabilities => { full_urls => JSON::PP::true, reports_line => JSON::PP::false },
});

# Lines end at LF only ($/ is "\n"); a trailing CR is JSON whitespace anyway.
local $/ = "\n";
while (my $line = <STDIN>) {
    next if $line =~ /\A\s*\z/;
    emit(answer($line));
}
exit 0;
