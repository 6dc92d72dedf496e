"""Which webhook URLs and addresses the server calls (service/webhooks/destinations.py)."""

import asyncio
import ipaddress

import pytest

from service.config import ConfigError, Settings
from service.webhooks import signing
from service.webhooks.destinations import Destinations, Refused, _networks

ANY = Destinations(("*",))


@pytest.mark.parametrize("address", [
    "127.0.0.1", "10.1.2.3", "172.16.0.1", "192.168.1.1", "169.254.169.254", "0.0.0.0",
    "224.0.0.1", "240.0.0.1", "100.64.0.1", "::1", "fe80::1", "fc00::1", "ff02::1",
    "::ffff:127.0.0.1", "::ffff:10.0.0.1", "255.255.255.255"])
def test_private_loopback_link_local_multicast_and_reserved_addresses_are_refused(address):
    with pytest.raises(Refused):
        ANY.check_address(ipaddress.ip_address(address))


def test_public_addresses_are_allowed():
    for address in ("93.184.216.34", "2606:4700:4700::1111", "8.8.8.8"):
        ANY.check_address(ipaddress.ip_address(address))


def test_a_network_the_operator_lists_is_allowed_and_nothing_beside_it():
    allowed = Destinations(("*",), _networks("10.0.0.0/8, 127.0.0.1/32"))
    allowed.check_address(ipaddress.ip_address("10.9.9.9"))
    allowed.check_address(ipaddress.ip_address("127.0.0.1"))
    with pytest.raises(Refused):
        allowed.check_address(ipaddress.ip_address("127.0.0.2"))


@pytest.mark.parametrize("url", [
    "ftp://bots.example.com/", "http://user:pw@bots.example.com/", "http:///path",
    "http://bots.example.com/#frag", "http://127.0.0.1/", "http://[::1]:80/",
    "http://bots.example.com:99999/", "file:///etc/passwd", "http://" + "a" * 2001])
def test_malformed_or_forbidden_urls_are_refused_before_any_resolution(url):
    with pytest.raises(Refused):
        ANY.checked_url(url)


def test_host_names_are_matched_exactly_or_as_subdomains_of_a_listed_domain():
    listed = Destinations(("bots.example.com", "*.acme.io"))
    assert listed.checked_url("https://bots.example.com/x").port == 443
    assert listed.checked_url("http://a.b.acme.io:8080/").port == 8080
    for url in ("https://example.com/", "https://evilacme.io/", "https://acme.io.evil.com/"):
        with pytest.raises(Refused):
            listed.checked_url(url)


def test_a_name_with_one_refused_address_is_refused_whole():
    # localhost resolves to loopback (both families, on most hosts): one refused is enough
    with pytest.raises(Refused):
        asyncio.run(ANY.resolve("localhost", 80))
    allowed = Destinations(("*",), _networks("127.0.0.0/8,::1/128"))
    assert asyncio.run(allowed.resolve("localhost", 80))


def test_the_settings_refuse_a_bad_allow_list_and_round_trip():
    with pytest.raises(ConfigError):
        Settings.from_env({"WEBHOOK_NETWORKS": "10.0.0.0/33"})
    with pytest.raises(ConfigError):
        Settings.from_env({"WEBHOOK_HOSTS": "http://bots.example.com"})
    settings = Settings.from_env({"WEBHOOK_HOSTS": "*.acme.io,bots.example.com",
                                  "WEBHOOK_NETWORKS": "10.0.0.0/8", "WEBHOOK_TIMEOUT_MS": "500"})
    assert Settings.from_env(settings.as_env()) == settings
    assert not Destinations.of(Settings.from_env({"WEBHOOK_HOSTS": ""})).enabled


def test_a_signature_checks_with_its_secret_only_and_within_the_tolerance():
    body = b'{"game": 1}'
    header = signing.header(["new", "old"], 1_000_000, body)
    assert signing.verify("new", header, body, 1_000_100)
    assert signing.verify("old", header, body, 1_000_100)
    assert not signing.verify("other", header, body, 1_000_100)
    assert not signing.verify("new", header, body + b" ", 1_000_100)
    assert not signing.verify("new", header, body, 1_000_000 + signing.TOLERANCE_SECONDS + 1)
