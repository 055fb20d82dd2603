"""The Mini App's launch data and Discord's links, checked as Telegram and we sign them,
and every forgery refused."""

import hashlib
import hmac
import json
from urllib.parse import urlencode

import pytest

from adapters.web.auth import Person, Refused, Signer, check_init_data

TOKEN = "123456:ABC-secret"
NOW = 1_800_000_000.0


def signed(fields: dict[str, str], token: str = TOKEN) -> str:
    """Launch data signed the way Telegram's documentation spells out, independently of
    the code under test."""
    check = "\n".join(f"{k}={v}" for k, v in sorted(fields.items()))
    key = hmac.new(b"WebAppData", token.encode(), hashlib.sha256).digest()
    digest = hmac.new(key, check.encode(), hashlib.sha256).hexdigest()
    return urlencode({**fields, "hash": digest})


def launch(**extra: str) -> dict[str, str]:
    return {"user": json.dumps({"id": 42, "first_name": "Ada", "language_code": "fr"}),
            "auth_date": str(int(NOW) - 10), "chat_instance": "-99",
            "start_param": "7_abcdefghij", **extra}


def test_genuine_launch_data_names_the_user_it_was_signed_for():
    got = check_init_data(signed(launch()), TOKEN, NOW)
    assert got.person == Person("telegram", "42", "Ada", "fr")
    assert got.start_param == "7_abcdefghij"


def test_a_changed_user_id_breaks_the_signature():
    data = signed(launch()).replace("%22id%22%3A+42", "%22id%22%3A+43")
    assert data != signed(launch())
    with pytest.raises(Refused) as exc:
        check_init_data(data, TOKEN, NOW)
    assert exc.value.code == "bad_signature"


def test_launch_data_signed_with_another_bots_token_is_refused():
    with pytest.raises(Refused) as exc:
        check_init_data(signed(launch(), token="999:other"), TOKEN, NOW)
    assert exc.value.code == "bad_signature"


def test_launch_data_without_hash_or_with_a_field_twice_is_refused():
    unsigned = urlencode(launch())
    with pytest.raises(Refused):
        check_init_data(unsigned, TOKEN, NOW)
    twice = signed(launch()) + "&user=" + json.dumps({"id": 1})
    with pytest.raises(Refused):
        check_init_data(twice, TOKEN, NOW)


def test_stale_launch_data_is_refused():
    old = launch(auth_date=str(int(NOW) - 2 * 3600))
    with pytest.raises(Refused) as exc:
        check_init_data(signed(old), TOKEN, NOW)
    assert exc.value.code == "stale_launch"
    future = launch(auth_date=str(int(NOW) + 3600))
    with pytest.raises(Refused):
        check_init_data(signed(future), TOKEN, NOW)


SIGNER = Signer(b"k" * 32)
ADA = Person("discord", "1001", "Ada", "de")


def test_a_link_opens_its_table_for_its_user():
    token = SIGNER.link_token(ADA, 7, NOW)
    link = SIGNER.check_link(token, 7, NOW + 60)
    assert link.person == ADA and link.table_id == 7


def test_a_link_for_another_table_is_refused():
    token = SIGNER.link_token(ADA, 7, NOW)
    with pytest.raises(Refused) as exc:
        SIGNER.check_link(token, 8, NOW)
    assert exc.value.code == "other_table"


def test_an_expired_link_is_refused():
    token = SIGNER.link_token(ADA, 7, NOW)
    with pytest.raises(Refused) as exc:
        SIGNER.check_link(token, 7, NOW + 16 * 60)
    assert exc.value.code == "stale_link"


def test_a_tampered_link_or_one_for_another_user_is_refused():
    token = SIGNER.link_token(ADA, 7, NOW)
    body, mac = token.split(".")
    other = SIGNER.link_token(Person("discord", "2002", "Bob"), 7, NOW)
    # Bob's body under Ada's signature, and Ada's body with a letter changed.
    forged = [f"{other.split('.')[0]}.{mac}", f"{body[:-2]}AA.{mac}", f"{body}.{mac[:-1]}x",
              f"{body}", "", "a.b.c"]
    for token in forged:
        with pytest.raises(Refused):
            SIGNER.check_link(token, 7, NOW)
    with pytest.raises(Refused):
        Signer(b"j" * 32).check_link(SIGNER.link_token(ADA, 7, NOW), 7, NOW)


def test_a_link_never_passes_for_a_session_nor_a_session_for_a_link():
    link = SIGNER.link_token(ADA, 7, NOW)
    with pytest.raises(Refused):
        SIGNER.check_session(link, NOW)
    session = SIGNER.session(ADA, NOW)
    assert SIGNER.check_session(session, NOW) == ADA
    with pytest.raises(Refused):
        SIGNER.check_link(session, 7, NOW)


def test_an_expired_or_tampered_session_is_refused():
    session = SIGNER.session(ADA, NOW, lifetime=60)
    with pytest.raises(Refused) as exc:
        SIGNER.check_session(session, NOW + 61)
    assert exc.value.code == "stale_session"
    body, mac = session.split(".")
    with pytest.raises(Refused):
        SIGNER.check_session(f"{body}x.{mac}", NOW)
