"""API key entries, hashing and lookup: plain data, no app."""

from __future__ import annotations

import pytest

from app.access import KeyConfigError, KeyRing, hash_key, load_keys, presented_key
from app.access.keys import parse_entries

KEY = "rt_live_4f9c2b7e1d"


def test_an_entry_is_a_name_and_the_sha256_of_the_key():
    (key,) = parse_entries([f"frontend:{hash_key(KEY)}"])
    assert key.name == "frontend" and not key.admin
    assert KeyRing([key]).verify(KEY) == key


def test_admin_role_is_an_optional_third_field():
    (key,) = parse_entries([f"ops:{hash_key(KEY)}:admin"])
    assert key.admin


@pytest.mark.parametrize(
    "entry",
    [
        KEY,  # a raw key instead of name:hash
        f"frontend:{KEY}",  # the key itself where its hash belongs
        f"frontend:{hash_key(KEY)}:root",
        f"bad name:{hash_key(KEY)}",
    ],
)
def test_malformed_entries_are_refused_without_echoing_them(entry):
    with pytest.raises(KeyConfigError) as caught:
        parse_entries([entry])
    assert KEY not in str(caught.value)


def test_keys_file_entries_join_the_setting_and_comments_are_skipped(tmp_path):
    path = tmp_path / "keys"
    path.write_text(f"# partners\nb:{hash_key('second-key')}\n\n", encoding="utf-8")
    ring = KeyRing(load_keys([f"a:{hash_key(KEY)}"], str(path)))
    assert ring.verify(KEY).name == "a"
    assert ring.verify("second-key").name == "b"
    assert ring.verify("third-key") is None
    assert ring.verify("") is None and ring.verify(None) is None


def test_no_entries_means_keys_are_off():
    assert not KeyRing(()).enabled


def test_bearer_wins_over_x_api_key_and_other_schemes_are_ignored():
    assert presented_key([(b"authorization", b"Bearer abc"), (b"x-api-key", b"xyz")]) == "abc"
    assert presented_key([(b"authorization", b"Basic abc"), (b"x-api-key", b"xyz")]) == "xyz"
    assert presented_key([(b"authorization", b"Basic abc")]) is None
    assert presented_key([]) is None
