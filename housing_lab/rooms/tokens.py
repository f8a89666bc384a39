"""Room secrets: random tokens, stored only as SHA-256 hashes, compared in constant time.

A token is 32 random bytes (`secrets.token_urlsafe`), so a hash alone is enough (no salt or slow
hash needed: nobody can guess 256 bits, and a leaked hash cannot be turned back into a link).

>>> token = new_token()
>>> matches(token, hash_token(token)), matches(token + "x", hash_token(token))
(True, False)
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

TOKEN_BYTES = 32
MAX_TOKEN = 200  # characters: anything longer is not one of ours (and is not hashed)


def new_token() -> str:
    """A fresh secret for one link (43 URL-safe characters), never starting with "-" (the
    command line would read `--token -x...` as an option)."""
    while True:
        token = secrets.token_urlsafe(TOKEN_BYTES)
        if not token.startswith("-"):
            return token


def hash_token(token: str) -> str:
    """The hex SHA-256 of a token: what the store keeps."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def matches(token: object, stored_hash: str) -> bool:
    """Whether `token` is the one whose hash is `stored_hash` (constant time in the hash)."""
    if not isinstance(token, str) or not token or len(token) > MAX_TOKEN:
        return False
    return hmac.compare_digest(hash_token(token), stored_hash)


def new_room_code(length: int = 6) -> str:
    """A short room code to read aloud: no 0/O or 1/I/L to confuse."""
    alphabet = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
    return "".join(secrets.choice(alphabet) for _ in range(length))
