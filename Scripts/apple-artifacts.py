"""Apple's App Store Server Library for Python against our `receipt` signing commands.

Run by Scripts/apple-artifacts: python apple-artifacts.py RECEIPT KEY.p8 SCRATCH_DIR.

For each artifact both sides sign the same inputs with the same key, then:
- JWS (the API token, promotional offer V2, introductory offer eligibility, Advanced Commerce):
  both tokens are decoded with PyJWT's `jwt.decode` under the public key (so ours must verify),
  headers must be equal, claims equal member for member except `nonce` (a fresh lowercase UUID on
  each side) and `iat`/`exp`, which may differ by the seconds between the two runs. The API token:
  Apple's `_generate_token` writes no `iat`, which Apple's documentation ("Generating JSON Web
  Tokens for API requests") lists and ours writes; that one difference is reported, not failed.
- The promotional offer signature V1: both are base64 DER ECDSA signatures over the payload
  Apple's `PromotionalOfferSignatureCreator` builds; both must verify with `cryptography` under
  the public key. Apple's differ from run to run (random nonces); ours must not (RFC 6979).
Exit status 1 when any check fails.
"""

import base64
import json
import re
import subprocess
import sys
import uuid

import attr
import jwt
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ec import ECDSA
from cryptography.hazmat.primitives.hashes import SHA256

from appstoreserverlibrary.api_client import AppStoreServerAPIClient
from appstoreserverlibrary.jws_signature_creator import (
    AdvancedCommerceAPIInAppRequest,
    AdvancedCommerceAPIInAppSignatureCreator,
    IntroductoryOfferEligibilitySignatureCreator,
    PromotionalOfferV2SignatureCreator,
)
from appstoreserverlibrary.models.Environment import Environment
from appstoreserverlibrary.models.LibraryUtility import _get_cattrs_converter
from appstoreserverlibrary.promotional_offer import PromotionalOfferSignatureCreator

RECEIPT, KEY_PATH, SCRATCH = sys.argv[1:4]
KEY_ID = "2X9R4HXF34"
ISSUER = "57246542-96fe-1a63-e053-0824d011072a"
BUNDLE = "com.example.artifacts"
SECONDS_APART = 5
UUID_PATTERN = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$")

with open(KEY_PATH, "rb") as f:
    KEY_PEM = f.read()
PUBLIC_KEY = serialization.load_pem_private_key(KEY_PEM, password=None).public_key()
failures = []


def check(label, ok, detail=""):
    print(f"  {'ok  ' if ok else 'FAIL'} {label}{': ' + detail if detail else ''}")
    if not ok:
        failures.append(label)


def receipt(*arguments):
    """Runs our tool; one line on standard output, exit 0, nothing on standard error."""
    result = subprocess.run(
        [RECEIPT, *arguments, "--key", KEY_PATH, "--key-id", KEY_ID, "--bundle-id", BUNDLE],
        capture_output=True, text=True)
    if result.returncode != 0 or result.stderr or result.stdout.count("\n") != 1:
        raise SystemExit(f"receipt {' '.join(arguments)}: exit {result.returncode}, stderr {result.stderr!r}")
    return result.stdout.strip()


def compare_jws(name, apple, ours, audience, varying, only_ours=()):
    """Decodes both tokens under the public key and compares them member for member."""
    print(f"{name} (aud {audience})")
    decoded = {}
    for side, token in (("Apple's", apple), ("our", ours)):
        try:
            decoded[side] = jwt.decode(token, PUBLIC_KEY, algorithms=["ES256"], audience=audience, leeway=SECONDS_APART)
            check(f"{side} token verifies under the key (jwt.decode, ES256)", True)
        except jwt.PyJWTError as error:
            check(f"{side} token verifies under the key (jwt.decode, ES256)", False, repr(error))
            return
    apple_header, our_header = jwt.get_unverified_header(apple), jwt.get_unverified_header(ours)
    check("headers identical", apple_header == our_header, f"{our_header}")
    apple_claims, our_claims = decoded["Apple's"], decoded["our"]
    extra = sorted(set(our_claims) - set(apple_claims))
    check("the same claim names", sorted(set(apple_claims) | set(only_ours)) == sorted(our_claims),
          f"Apple {sorted(apple_claims)}, ours {sorted(our_claims)}")
    for member in extra:
        print(f"  note ours adds '{member}' = {our_claims[member]!r}, which Apple's library leaves out "
              "(Apple's documentation lists it)")
    for member in sorted(set(apple_claims) & set(our_claims)):
        a, o = apple_claims[member], our_claims[member]
        if member == "nonce":
            check("nonce: both fresh lowercase UUIDs (version 4), different", bool(UUID_PATTERN.match(a))
                  and bool(UUID_PATTERN.match(o)) and a != o, f"Apple {a}, ours {o}")
        elif member in varying:
            check(f"{member}: integers within {SECONDS_APART} s", type(a) is int and type(o) is int
                  and abs(a - o) <= SECONDS_APART, f"Apple {a}, ours {o}")
        else:
            check(f"{member} identical", a == o and type(a) is type(o), repr(o))
    return our_claims


def api_token():
    client = AppStoreServerAPIClient(KEY_PEM, KEY_ID, ISSUER, BUNDLE, Environment.SANDBOX)
    apple = client._generate_token()
    ours = receipt("jwt", "--issuer", ISSUER)
    claims = compare_jws("App Store Server API token (AppStoreServerAPIClient._generate_token)", apple, ours,
                         "appstoreconnect-v1", varying={"exp"}, only_ours={"iat"})
    if claims:
        check("ours: exp = iat + 300 (Apple's five minutes)", claims["exp"] - claims["iat"] == 300)


def promotional_offer_v1():
    print("Promotional offer signature V1 (PromotionalOfferSignatureCreator)")
    creator = PromotionalOfferSignatureCreator(KEY_PEM, KEY_ID, BUNDLE)
    cases = [
        ("com.example.monthly", "WINBACK", "A1B2C3D4-0000-4000-8000-00000000ABCD", uuid.uuid4(), 1698148900000),
        ("com.example.yearly", "intro-2", "", uuid.uuid4(), 1700000000123),
    ]
    for product, offer, token, nonce, timestamp in cases:
        # The payload exactly as promotional_offer.py builds it.
        payload = "\u2063".join([BUNDLE, KEY_ID, product, offer, token.lower(), str(nonce).lower(), str(timestamp)])
        apple = [creator.create_signature(product, offer, token, nonce, timestamp) for _ in range(2)]
        arguments = ["offer-signature", "--product", product, "--offer", offer, "--app-account-token", token,
                     "--nonce", str(nonce).upper(), "--timestamp", str(timestamp)]
        ours = [receipt(*arguments) for _ in range(2)]
        label = f"appAccountToken {token!r}" if token else "empty appAccountToken"
        for side, signatures in (("Apple's", apple), ("our", ours)):
            for signature in signatures:
                try:
                    PUBLIC_KEY.verify(base64.b64decode(signature, validate=True), payload.encode("utf-8"), ECDSA(SHA256()))
                    check(f"{label}: {side} signature verifies over Apple's payload", True)
                except (InvalidSignature, ValueError) as error:
                    check(f"{label}: {side} signature verifies over Apple's payload", False, repr(error))
        check(f"{label}: ours the same twice (RFC 6979), Apple's two differ", ours[0] == ours[1] and apple[0] != apple[1])


def offer_jws():
    common = ["--issuer", ISSUER]
    v2 = PromotionalOfferV2SignatureCreator(KEY_PEM, KEY_ID, ISSUER, BUNDLE)
    for transaction in ("2000000123456789", None):
        more = ["--transaction-id", transaction] if transaction else []
        compare_jws(f"Promotional offer V2 (PromotionalOfferV2SignatureCreator), transactionId {transaction}",
                    v2.create_signature("com.example.monthly", "WINBACK", transaction),
                    receipt("offer-jws", "promotional-offer", *common, "--product-id", "com.example.monthly",
                            "--offer-identifier", "WINBACK", *more),
                    "promotional-offer", varying={"iat"})
    eligibility = IntroductoryOfferEligibilitySignatureCreator(KEY_PEM, KEY_ID, ISSUER, BUNDLE)
    for allow in (True, False):
        compare_jws(f"Introductory offer eligibility (IntroductoryOfferEligibilitySignatureCreator), {allow}",
                    eligibility.create_signature("com.example.monthly", allow, "2000000123456789"),
                    receipt("offer-jws", "introductory-eligibility", *common, "--product-id", "com.example.monthly",
                            "--allow-introductory-offer", str(allow).lower(), "--transaction-id", "2000000123456789"),
                    "introductory-offer-eligibility", varying={"iat"})

    @attr.define
    class InAppRequest(AdvancedCommerceAPIInAppRequest):
        operation: str
        version: str
        displayName: str
        price: int

    request = InAppRequest("CREATE_ONE_TIME_CHARGE", "1", "Caf\u00e9 \u2615 +/=", 990)
    # The request text as Apple's creator encodes it: json.dumps of the cattrs unstructuring.
    text = json.dumps(_get_cattrs_converter(type(request)).unstructure(request))
    path = f"{SCRATCH}/request.json"
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    compare_jws("Advanced Commerce in-app request (AdvancedCommerceAPIInAppSignatureCreator)",
                AdvancedCommerceAPIInAppSignatureCreator(KEY_PEM, KEY_ID, ISSUER, BUNDLE).create_signature(request),
                receipt("offer-jws", "advanced-commerce", *common, "--request-json", path),
                "advanced-commerce-api", varying={"iat"})


api_token()
promotional_offer_v1()
offer_jws()
if failures:
    print(f"apple-artifacts: {len(failures)} check(s) FAILED: {failures}")
    sys.exit(1)
print("apple-artifacts: every artifact agrees with Apple's Python library")
