"""Where the server may call out: the operator's allow-list of webhook destinations.

A webhook URL is http or https, names a host (no user or password), and that host must
be allowed by name (WEBHOOK_HOSTS: exact names, `*.domain`, or `*`). Its name is resolved
at every call and every address it resolves to is checked: a public (global unicast)
address is allowed; a private, loopback, link-local, multicast, reserved or otherwise
non-global one only inside a network the operator lists (WEBHOOK_NETWORKS). A name with
one refused address is refused whole, and the connection goes to the addresses checked,
never to a second resolution's (the caller's resolver is this check), so a name that
resolves to a public address once and to 127.0.0.1 the next time (DNS rebinding) cannot
reach a refused address.
"""

import asyncio
import ipaddress
import socket
from dataclasses import dataclass
from urllib.parse import SplitResult, urlsplit

from service.config import Settings

Address = ipaddress.IPv4Address | ipaddress.IPv6Address
Network = ipaddress.IPv4Network | ipaddress.IPv6Network

MAX_URL = 2000


class Refused(Exception):
    """A destination the server will not call; the message says why, in words fit for
    the webhook's owner (never an address the name resolved to: that is the operator's)."""


@dataclass(frozen=True)
class Destination:
    """A checked URL's parts: where to connect, and what to say in the request line."""
    url: str
    scheme: str
    host: str
    port: int


def _networks(raw: str) -> tuple[Network, ...]:
    return tuple(ipaddress.ip_network(item.strip(), strict=False)
                 for item in raw.split(",") if item.strip())


def _literal(host: str) -> Address | None:
    try:
        return ipaddress.ip_address(host)
    except ValueError:
        return None


@dataclass(frozen=True)
class Destinations:
    hosts: tuple[str, ...]
    networks: tuple[Network, ...] = ()

    @classmethod
    def of(cls, settings: Settings) -> "Destinations":
        return cls(settings.webhook_hosts, _networks(settings.webhook_networks))

    @property
    def enabled(self) -> bool:
        return bool(self.hosts)

    def checked_url(self, url: str) -> Destination:
        """The URL's destination if its form and host name are allowed; Refused otherwise.
        (Its addresses are checked at every call: resolved.)"""
        if not self.enabled:
            raise Refused("this server calls no webhook (its operator set WEBHOOK_HOSTS empty)")
        if len(url) > MAX_URL:
            raise Refused(f"a webhook URL has at most {MAX_URL} characters")
        try:
            parts = urlsplit(url)
            port = parts.port
        except ValueError as error:
            raise Refused(f"not a URL: {error}") from None
        if parts.scheme not in ("http", "https"):
            raise Refused("a webhook URL is http:// or https://")
        if parts.username is not None or parts.password is not None:
            raise Refused("a webhook URL carries no user name or password (the calls are"
                          " signed: docs/arena.md)")
        if parts.fragment:
            raise Refused("a webhook URL has no fragment (#...)")
        host = (parts.hostname or "").rstrip(".")
        if not host:
            raise Refused("a webhook URL names a host")
        if not self._host_allowed(host):
            raise Refused(f"this server does not call {host}: its operator allows"
                          f" {', '.join(self.hosts)}")
        literal = _literal(host)
        if literal is not None:
            self.check_address(literal)
        return Destination(url, parts.scheme, host, port or _default_port(parts))

    def _host_allowed(self, host: str) -> bool:
        host = host.lower()
        return any(allowed == "*" or allowed == host or
                   (allowed.startswith("*.") and host.endswith(allowed[1:]))
                   for allowed in self.hosts)

    def check_address(self, address: Address) -> None:
        """Refused unless the address is public, or within a network the operator allows."""
        if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
            address = address.ipv4_mapped  # ::ffff:127.0.0.1 is 127.0.0.1
        if any(address in network for network in self.networks):
            return
        if not address.is_global or address.is_multicast:
            raise Refused("the webhook's host resolves to an address this server does not"
                          " call (private, loopback, link-local, multicast or reserved)")

    async def resolve(self, host: str, port: int) -> list[Address]:
        """Every address host resolves to, each checked: Refused if one is refused or
        there is none."""
        literal = _literal(host)
        if literal is not None:
            self.check_address(literal)
            return [literal]
        try:
            found = await asyncio.get_running_loop().getaddrinfo(
                host, port, type=socket.SOCK_STREAM, proto=socket.IPPROTO_TCP)
        except (OSError, UnicodeError):
            raise Refused(f"the webhook's host {host} does not resolve") from None
        addresses = list(dict.fromkeys(ipaddress.ip_address(info[4][0].split("%")[0])
                                       for info in found))
        if not addresses:
            raise Refused(f"the webhook's host {host} does not resolve")
        for address in addresses:
            self.check_address(address)
        return addresses


def _default_port(parts: SplitResult) -> int:
    return 443 if parts.scheme == "https" else 80
