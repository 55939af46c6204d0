//! Who may use the board. Its WebSocket drives the engine and replaces the
//! stored game, and a browser lets any page open a WebSocket to any
//! address, 127.0.0.1 included: it only tells the server which page asks
//! (`Origin`). A DNS-rebinding name (another site's name made to point at
//! 127.0.0.1) even makes another site's page same-origin with the board;
//! the browser then sends that name as the `Host`.
//!
//! So every request must name the board by a `Host` that no other site can
//! own ([`Access::host_allowed`]), and the WebSocket must come from the
//! board's own page: its `Origin` is the `Host` it was sent to
//! ([`origin_matches`]). A request with a foreign `Origin` is refused on
//! every route; the WebSocket is refused without one. Refusals are `403`s,
//! before the upgrade.

use choro_match::text::clip;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

/// The names a request's `Host` may carry.
#[derive(Clone, Debug)]
pub struct Access {
    /// The address the server listens on.
    listen: IpAddr,
    /// Names the user allowed (`--allow-host`), in lower case.
    names: Vec<String>,
}

impl Access {
    /// The board listening on `listen`, reachable also by `names`.
    pub fn new(listen: IpAddr, names: &[String]) -> Access {
        Access {
            listen,
            names: names.iter().map(|n| n.to_ascii_lowercase()).collect(),
        }
    }

    /// Whether `host` (a `Host` header: `name`, `name:port`, `[v6]:port`)
    /// names this board: `localhost`, a loopback address (127.0.0.0/8,
    /// `::1`), the address it listens on (any address when that is 0.0.0.0
    /// or `::`), or a name the user allowed. Any port: the `Origin` check
    /// holds the page to the port it was loaded from. An address cannot be
    /// rebound, so only names are held to a list.
    pub fn host_allowed(&self, host: &str) -> bool {
        match parse_host(host) {
            Some(Host::Ip(ip)) => {
                let ip = match ip {
                    IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(ip, IpAddr::V4),
                    v4 => v4,
                };
                ip.is_loopback() || ip == self.listen || self.listen.is_unspecified()
            }
            Some(Host::Name(name)) => {
                let name = name.to_ascii_lowercase();
                name == "localhost" || self.names.contains(&name)
            }
            None => false,
        }
    }

    /// Why a request with these headers is refused, if it is: `host` and
    /// `origin` are the values of its `Host` and `Origin` headers (`None`
    /// when absent; a header sent twice or not text should be refused
    /// before), `websocket` whether it asks for the WebSocket.
    pub fn refusal(
        &self,
        host: Option<&str>,
        origin: Option<&str>,
        websocket: bool,
    ) -> Option<String> {
        let Some(host) = host else {
            return Some("a request without a Host header".into());
        };
        if !self.host_allowed(host) {
            return Some(format!(
                "Host \"{}\" is not this board's (localhost, a loopback address, the address it \
                 listens on or a name given with --allow-host)",
                clip(host)
            ));
        }
        match origin {
            Some(o) if !origin_matches(o, host) => Some(format!(
                "Origin \"{}\" is not the board's own page (http://{})",
                clip(o),
                clip(host)
            )),
            None if websocket => {
                Some("a WebSocket without an Origin (the board's page sends one)".into())
            }
            _ => None,
        }
    }
}

/// Whether `origin` (an `Origin` header) is the page served from `host`:
/// `http://` and the `Host` (`https://` too, for a proxy in front), letter
/// case aside.
pub fn origin_matches(origin: &str, host: &str) -> bool {
    ["http://", "https://"].iter().any(|scheme| {
        origin.len() == scheme.len() + host.len()
            && origin
                .get(..scheme.len())
                .is_some_and(|s| s.eq_ignore_ascii_case(scheme))
            && origin
                .get(scheme.len()..)
                .is_some_and(|h| h.eq_ignore_ascii_case(host))
    })
}

enum Host<'a> {
    Ip(IpAddr),
    Name(&'a str),
}

/// The address or name of a `Host` value, with an optional port of digits;
/// `None` when it is neither.
fn parse_host(host: &str) -> Option<Host<'_>> {
    let port_ok = |p: &str| {
        !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()) && p.parse::<u16>().is_ok()
    };
    if let Some(rest) = host.strip_prefix('[') {
        let (v6, after) = rest.split_once(']')?;
        if !(after.is_empty() || after.strip_prefix(':').is_some_and(port_ok)) {
            return None;
        }
        return v6.parse::<Ipv6Addr>().ok().map(|a| Host::Ip(IpAddr::V6(a)));
    }
    let (name, port) = match host.split_once(':') {
        Some((n, p)) => (n, Some(p)),
        None => (host, None),
    };
    if port.is_some_and(|p| !port_ok(p)) {
        return None;
    }
    if let Ok(a) = name.parse::<Ipv4Addr>() {
        return Some(Host::Ip(IpAddr::V4(a)));
    }
    let label = |l: &str| !l.is_empty() && l.chars().all(|c| c.is_ascii_alphanumeric() || c == '-');
    if name.split('.').all(label) {
        Some(Host::Name(name))
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn loopback() -> Access {
        Access::new(IpAddr::V4(Ipv4Addr::LOCALHOST), &[])
    }

    #[test]
    fn loopback_hosts_with_any_port_are_the_boards() {
        let a = loopback();
        for h in [
            "127.0.0.1:7878",
            "127.0.0.1",
            "127.1.2.3:80",
            "localhost:7878",
            "LocalHost",
            "[::1]:7878",
            "[::1]",
            "[::ffff:127.0.0.1]:7878",
        ] {
            assert!(a.host_allowed(h), "{h}");
        }
    }

    #[test]
    fn other_names_and_malformed_hosts_are_refused() {
        let a = loopback();
        for h in [
            "evil.example:7878",
            "localhost.evil.example",
            "localhost.",
            "127.0.0.1.nip.io:7878",
            "192.168.1.5:7878",
            "[::2]:7878",
            "127.0.0.1:",
            "127.0.0.1:99999",
            "127.0.0.1:78a",
            "127.0.0.1:+80",
            "[::1",
            "[::1]x",
            "[localhost]",
            "",
            "local host",
            "localhost:7878:1",
            "user@localhost",
        ] {
            assert!(!a.host_allowed(h), "{h}");
        }
    }

    #[test]
    fn the_listening_address_and_allowed_names_are_the_boards() {
        let lan = Access::new("192.168.1.5".parse().unwrap(), &["Board.LAN".into()]);
        assert!(lan.host_allowed("192.168.1.5:7878"));
        assert!(lan.host_allowed("board.lan:7878"));
        assert!(!lan.host_allowed("192.168.1.6:7878"));
        assert!(!lan.host_allowed("other.lan:7878"));
        let all = Access::new(IpAddr::V4(Ipv4Addr::UNSPECIFIED), &[]);
        assert!(all.host_allowed("10.0.0.7:7878"));
        assert!(all.host_allowed("[fe80::1]:7878"));
        assert!(!all.host_allowed("rebound.example:7878"));
    }

    #[test]
    fn the_origin_must_be_the_page_of_the_host() {
        assert!(origin_matches("http://127.0.0.1:7878", "127.0.0.1:7878"));
        assert!(origin_matches("HTTP://LOCALHOST:7878", "localhost:7878"));
        assert!(origin_matches("https://[::1]:7878", "[::1]:7878"));
        for o in [
            "http://127.0.0.1:7879",
            "http://localhost:7878",
            "http://evil.example",
            "null",
            "http://127.0.0.1:7878/",
            "ws://127.0.0.1:7878",
            "http://127.0.0.1",
            "",
            "h\u{e9}p://127.0.0.1:7878",
            "http:/\u{e9}27.0.0.1:7878",
        ] {
            assert!(!origin_matches(o, "127.0.0.1:7878"), "{o}");
        }
    }

    #[test]
    fn a_refusal_names_what_is_wrong() {
        let a = loopback();
        assert_eq!(
            a.refusal(Some("127.0.0.1:1"), Some("http://127.0.0.1:1"), true),
            None
        );
        assert_eq!(a.refusal(Some("127.0.0.1:1"), None, false), None);
        assert!(a.refusal(None, None, false).unwrap().contains("Host"));
        assert!(a
            .refusal(Some("127.0.0.1:1"), None, true)
            .unwrap()
            .contains("without an Origin"));
        assert!(a
            .refusal(Some("127.0.0.1:1"), Some("http://evil.example"), false)
            .unwrap()
            .contains("evil.example"));
        assert!(a
            .refusal(Some("evil.example:1"), Some("http://evil.example:1"), true)
            .unwrap()
            .contains("is not this board's"));
    }
}
