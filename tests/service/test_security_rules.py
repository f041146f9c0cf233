"""The rules behind the same-origin checks and the users file, without a server: host names
as browsers send them, what counts as loopback, and tokens added and revoked."""

from __future__ import annotations

from pathlib import Path

import pytest

from service.security import SameOrigin, exposed_without_token, host_name, is_loopback
from service.settings import load_service_settings
from service.users import DEFAULT_USER, Tokens, Unauthorized, add_user, read_users, revoke_user


def _scope(kind: str = "http", method: str = "GET", **headers: str) -> dict:
    return {
        "type": kind,
        "method": method,
        "headers": [(k.encode(), v.encode()) for k, v in headers.items()],
    }


@pytest.mark.parametrize(
    ("header", "name"),
    [
        ("localhost:8000", "localhost"),
        ("127.0.0.1", "127.0.0.1"),
        ("[::1]:8000", "::1"),
        ("[::1]", "::1"),
        ("EVIL.example:80", "evil.example"),
    ],
)
def test_host_names_are_read_as_browsers_send_them(header: str, name: str) -> None:
    assert host_name(header) == name


def test_loopback_and_the_refusal_to_listen_past_it_without_a_token() -> None:
    assert all(is_loopback(h) for h in ("localhost", "127.0.0.1", "127.0.0.2", "::1", "[::1]"))
    assert not any(is_loopback(h) for h in ("0.0.0.0", "", "::", "192.168.1.5", "example.com"))  # noqa: S104
    open_all = load_service_settings({"HOST": "0.0.0.0"})  # noqa: S104
    assert "API_TOKEN" in (exposed_without_token(open_all, users=0) or "")
    assert exposed_without_token(open_all, users=1) is None
    assert exposed_without_token(load_service_settings({"HOST": "::", "API_TOKEN": "t"}), 0) is None
    assert exposed_without_token(load_service_settings({}), users=0) is None


def test_origin_is_checked_on_sockets_and_state_changes_only() -> None:
    guard = SameOrigin(app=None, hosts=frozenset({"localhost"}), origins=frozenset())  # type: ignore[arg-type]
    evil = "http://evil.example"
    assert guard.problem(_scope(host="localhost:8000", origin=evil)) is None  # a read
    for method in ("POST", "PUT", "PATCH", "DELETE"):
        found = guard.problem(_scope(method=method, host="localhost:8000", origin=evil))
        assert found is not None and found[0] == "ORIGIN_NOT_ALLOWED"
    assert guard.problem(_scope("websocket", host="localhost:8000", origin=evil)) is not None
    own = _scope("websocket", host="localhost:8000", origin="http://localhost:8000")
    assert guard.problem(own) is None
    other_port = _scope(method="POST", host="localhost:8000", origin="http://localhost:8501")
    assert guard.problem(other_port) is not None  # another origin on the same machine
    assert guard.problem(_scope(method="POST", host="localhost:8000")) is None  # curl


def test_tokens_added_and_revoked_count_from_the_next_request(tmp_path: Path) -> None:
    path = tmp_path / "users.jsonl"
    tokens = Tokens(api_token="legacy", users_file=path)
    with pytest.raises(Unauthorized):
        tokens.identify("Bearer anything")
    alice = add_user(path, "alice")
    assert tokens.identify(f"Bearer {alice}") == "alice"
    assert tokens.identify("Bearer legacy") == DEFAULT_USER
    with pytest.raises(ValueError, match="exists"):
        add_user(path, "alice")
    with pytest.raises(ValueError, match="not a user id"):
        add_user(path, "../alice")
    assert [r["user_id"] for r in read_users(path)] == ["alice"]
    assert alice not in path.read_text() and path.stat().st_mode & 0o077 == 0
    assert revoke_user(path, "alice") and not revoke_user(path, "alice")
    with pytest.raises(Unauthorized):
        tokens.identify(f"Bearer {alice}")
    # no users file: the legacy token is the one user, and nothing is owned
    assert Tokens(api_token="legacy").identify("Bearer legacy") is None
    assert Tokens().identify("") is None


def test_default_is_no_users_file_user_and_a_bad_edit_keeps_the_last_good_users(
    tmp_path: Path,
) -> None:
    from service.users import DEFAULT_USER, Tokens, add_user, hash_token

    path = tmp_path / "users.jsonl"
    with pytest.raises(ValueError, match="API_TOKEN"):
        add_user(path, DEFAULT_USER)  # it would see every thread with no owner
    token = add_user(path, "alice")
    tokens = Tokens(users_file=path)
    assert tokens.users() == {hash_token(token): "alice"}
    path.write_text(path.read_text() + "{not json\n")  # a bad hand edit
    assert tokens.users() == {hash_token(token): "alice"}  # not a 500 on every request
