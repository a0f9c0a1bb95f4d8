#!/usr/bin/env python3
"""receipt-server's App Store Server API through Apple's official Python client.

Run by AppleClientTests (Server/Tests/ReceiptServerTests/AppStoreServerAPI) with the python of the
virtual environment Server/ci makes (app-store-server-library, pinned). Reads one JSON object on
standard input (or from the file named by the first argument):

    {"baseURL": "http://127.0.0.1:PORT", "keyId": …, "issuerId": …, "bundleId": …,
     "appAppleId": N, "privateKeyPath": "key.p8", "rootCertificatePath": "root.der",
     "strictX509": true,
     "environments": [{"environment": "Production", "prefix": "",
        "customers": [{"name": …, "queries": [any transaction id of the customer…],
                       "transactions": [{"id": …, "jws": …}…],   # history order, ascending
                       "renewals": {originalTransactionId: jws},
                       "statuses": [{"subscriptionGroupIdentifier", "originalTransactionId",
                                     "status", "transactionId"}…],
                       "refunds": [transaction id…]}],            # by revocationDate
        "notifications": {"startDate": ms, "endDate": ms, "signedPayloads": [in received order]},
        "notFound": [transaction id…],
        "appTransaction": {"appTransactionId": …, "jws": …,              # optional
                           "queries": [ids answered with jws…],
                           "withoutAppTransaction": [ids of customers without one…]},
        "post": {"customer": name, "transactionId": …, "signedTransactionInfo": jws,
                 "statuses": [… after the post]}}]}             # optional

For every environment it points `AppStoreServerAPIClient` at the server (`client._base_url`, with
"/sandbox" for the sandbox), calls every endpoint, pages history (v1 and v2, both sorts, with
filters whose expected answer it computes from the decoded transactions as Apple documents them),
refunds and notification history, checks error cases come back as `APIException` with the right
`api_error`, and verifies every returned token with the library's own `SignedDataVerifier`
(`enable_online_checks=False`, X509_STRICT unless "strictX509" is false). Tokens must come back
byte for byte as posted. Prints a JSON summary; exits 1 on any mismatch.
"""

import importlib.metadata
import json
import sys
import traceback
from types import SimpleNamespace

import jwt
import requests
from appstoreserverlibrary.api_client import APIError, APIException, AppStoreServerAPIClient, GetTransactionHistoryVersion
from appstoreserverlibrary.models.Environment import Environment
from appstoreserverlibrary.models.InAppOwnershipType import InAppOwnershipType
from appstoreserverlibrary.models.LibraryUtility import _get_cattrs_converter
from appstoreserverlibrary.models.NotificationHistoryRequest import NotificationHistoryRequest
from appstoreserverlibrary.models.NotificationTypeV2 import NotificationTypeV2
from appstoreserverlibrary.models.Status import Status
from appstoreserverlibrary.models.StatusResponse import StatusResponse
from appstoreserverlibrary.models.TransactionHistoryRequest import Order, ProductType, TransactionHistoryRequest
from appstoreserverlibrary.signed_data_verifier import SignedDataVerifier

PAGE_SIZE = 20
# Apple's transaction `type` for each `productType` filter value.
PRODUCT_TYPES = {
    ProductType.AUTO_RENEWABLE: "Auto-Renewable Subscription",
    ProductType.NON_RENEWABLE: "Non-Renewing Subscription",
    ProductType.CONSUMABLE: "Consumable",
    ProductType.NON_CONSUMABLE: "Non-Consumable",
}


class RecordingClient(AppStoreServerAPIClient):
    """Apple's client, unchanged, remembering the last raw response so the JSON types can be
    checked (the library's parsing is lenient: it would read "false" as True)."""

    last = None

    def _execute_request(self, method, url, params, headers, json, data):
        self.last = super()._execute_request(method, url, params, headers, json, data)
        return self.last


class Conformance:
    def __init__(self, config):
        self.config = config
        self.failures = []
        self.checks = 0
        self.summary = {}
        with open(config["privateKeyPath"], "rb") as file:
            self.signing_key = file.read()
        with open(config["rootCertificatePath"], "rb") as file:
            self.root = file.read()
        self.bundle_id = config["bundleId"]
        self.app_apple_id = config.get("appAppleId")
        self.strict = config.get("strictX509", True)

    # -- bookkeeping -----------------------------------------------------------------------------

    def expect(self, condition, what):
        self.checks += 1
        if not condition:
            self.failures.append(what)
        return condition

    def equal(self, actual, expected, what):
        return self.expect(actual == expected, f"{what}: expected {expected!r}, got {actual!r}")

    def step(self, name, body):
        try:
            body()
        except Exception as error:  # one broken step must not hide the others
            self.failures.append(f"{name}: {type(error).__name__}: {error}\n{traceback.format_exc(limit=4)}")

    # -- clients ---------------------------------------------------------------------------------

    def client(self, environment, prefix, key_id=None, bundle_id=None):
        client = RecordingClient(
            self.signing_key, key_id or self.config["keyId"], self.config["issuerId"], bundle_id or self.bundle_id, environment
        )
        client._base_url = self.config["baseURL"] + prefix  # the documented switch: Apple's host → ours
        return client

    def verifier(self, environment):
        verifier = SignedDataVerifier([self.root], False, environment, self.bundle_id, self.app_apple_id)
        if not self.strict:
            verifier._chain_verifier.enable_strict_checks = False
        return verifier

    def raw(self, client, what):
        """The last response's JSON object, after checking its content type."""
        response = client.last
        self.equal(response.headers.get("content-type"), "application/json", f"{what}: Content-Type")
        body = response.json()
        self.expect(isinstance(body, dict), f"{what}: body is not a JSON object")
        return body

    def types(self, body, members, what):
        for name, kind in members.items():
            if name in body:
                value = body[name]
                ok = isinstance(value, kind) and not (kind is int and isinstance(value, bool))
                self.expect(ok, f"{what}: {name} is {type(value).__name__} {value!r}, not {kind.__name__}")

    def scope(self, body, env, what):
        self.equal(body.get("environment"), env.value, f"{what}: environment")
        self.equal(body.get("bundleId"), self.bundle_id, f"{what}: bundleId")
        if self.app_apple_id is not None:
            self.equal(body.get("appAppleId"), self.app_apple_id, f"{what}: appAppleId")
        self.types(body, {"environment": str, "bundleId": str, "appAppleId": int}, what)

    def api_error(self, call, status, error, what):
        """`call` must raise APIException(status, error) from a JSON error body."""
        try:
            call()
        except APIException as exception:
            self.equal(exception.http_status_code, status, f"{what}: HTTP status")
            self.equal(exception.api_error, error, f"{what}: api_error")
            if error is not None:
                self.expect(bool(exception.error_message), f"{what}: errorMessage is empty")
            self.errors_seen.add(error.name if error is not None else f"HTTP {status}")
            return exception
        self.failures.append(f"{what}: no APIException (expected {status} {error})")
        return None

    # -- endpoints -------------------------------------------------------------------------------

    def run(self):
        self.errors_seen = set()
        for environment in self.config["environments"]:
            self.step(environment["environment"], lambda: self.environment(environment))
        return {
            "ok": not self.failures,
            "library": importlib.metadata.version("app-store-server-library"),
            "strictX509": self.strict,
            "checks": self.checks,
            "errors": sorted(self.errors_seen),
            "environments": self.summary,
            "failures": self.failures,
        }

    def environment(self, spec):
        env = Environment(spec["environment"])
        client = self.client(env, spec["prefix"])
        verifier = self.verifier(env)
        counts = {"verifiedTokens": 0, "historyPages": 0, "refundPages": 0, "notificationPages": 0, "calls": 0}
        self.summary[env.value] = counts
        self.counts = counts
        customers = {customer["name"]: customer for customer in spec["customers"]}
        for customer in spec["customers"]:
            self.step(f"{env.value} {customer['name']}", lambda: self.customer(client, verifier, env, customer))
        if "notifications" in spec:
            self.step(f"{env.value} notification history", lambda: self.notifications(client, verifier, env, spec, customers))
        if "appTransaction" in spec:
            self.step(f"{env.value} app transaction", lambda: self.app_transaction(client, verifier, spec["appTransaction"]))
        self.step(f"{env.value} errors", lambda: self.errors(client, env, spec))
        if "post" in spec:
            self.step(f"{env.value} post", lambda: self.post(client, verifier, env, spec["post"], customers[spec["post"]["customer"]]))

    def transaction(self, verifier, jws):
        decoded = verifier.verify_and_decode_signed_transaction(jws)
        self.counts["verifiedTokens"] += 1
        return decoded

    def customer(self, client, verifier, env, customer):
        name = customer["name"]
        expected = customer["transactions"]
        by_id = {t["id"]: t["jws"] for t in expected}
        decoded = {t["id"]: self.transaction(verifier, t["jws"]) for t in expected}
        for tid, payload in decoded.items():
            self.equal(payload.transactionId, tid, f"{name}: posted token's transactionId")
        for query in customer["queries"]:
            self.statuses(client, verifier, env, customer, query, customer["statuses"], by_id)
        # Get Transaction Info: every transaction's own token, byte for byte.
        for tid, jws in by_id.items():
            info = client.get_transaction_info(tid)
            self.counts["calls"] += 1
            body = self.raw(client, f"{name}: transaction info {tid}")
            self.equal(list(body), ["signedTransactionInfo"], f"{name}: transaction info {tid} members")
            self.expect(info.signedTransactionInfo == jws, f"{name}: transaction info {tid} is not the posted token byte for byte")
            self.equal(self.transaction(verifier, info.signedTransactionInfo).transactionId, tid, f"{name}: transaction info id")
        order = [t["id"] for t in expected]
        for query in customer["queries"]:
            for version in (GetTransactionHistoryVersion.V1, GetTransactionHistoryVersion.V2):
                got = self.history(client, env, query, TransactionHistoryRequest(), version, by_id, f"{name} {version.value} {query}")
                self.equal(got, order, f"{name}: history {version.value} ({query}) ascending")
        first = customer["queries"][0]
        got = self.history(client, env, first, TransactionHistoryRequest(sort=Order.DESCENDING), GetTransactionHistoryVersion.V2, by_id, name)
        self.equal(got, order[::-1], f"{name}: history DESCENDING")
        got = self.history(client, env, first, TransactionHistoryRequest(sort=Order.ASCENDING), GetTransactionHistoryVersion.V2, by_id, name)
        self.equal(got, order, f"{name}: history ASCENDING")
        for request in self.filters(decoded, order):
            got = self.history(client, env, first, request, GetTransactionHistoryVersion.V2, by_id, f"{name} {request}")
            want = [tid for tid in order if self.matches(decoded[tid], request)]
            if request.sort == Order.DESCENDING:
                want.reverse()
            self.equal(got, want, f"{name}: history filtered by {request}")
        self.refunds(client, verifier, env, customer, first, by_id)

    def statuses(self, client, verifier, env, customer, query, expected, by_id, status_filter=None, what="statuses"):
        name = customer["name"]
        response = client.get_all_subscription_statuses(query, status_filter)
        self.counts["calls"] += 1
        body = self.raw(client, f"{name}: {what} ({query})")
        self.scope(body, env, f"{name}: {what}")
        self.equal(response.environment, env, f"{name}: {what} environment")
        want = sorted(
            (e for e in expected if status_filter is None or e["status"] in [s.value for s in status_filter]),
            key=lambda e: (e["subscriptionGroupIdentifier"], e["originalTransactionId"]),
        )
        got = []
        for group in response.data or []:
            for item in group.lastTransactions or []:
                got.append((group.subscriptionGroupIdentifier, item))
        self.equal(
            sorted((g, i.originalTransactionId, i.rawStatus) for g, i in got),
            [(e["subscriptionGroupIdentifier"], e["originalTransactionId"], e["status"]) for e in want],
            f"{name}: {what} ({query}) groups, originals and statuses",
        )
        groups = [g.subscriptionGroupIdentifier for g in response.data or []]
        self.equal(len(groups), len(set(groups)), f"{name}: {what} groups listed once each")
        for raw_group in body.get("data", []):
            self.types(raw_group, {"subscriptionGroupIdentifier": str, "lastTransactions": list}, f"{name}: {what} group")
            for raw_item in raw_group.get("lastTransactions", []):
                self.types(raw_item, {"status": int, "originalTransactionId": str, "signedTransactionInfo": str}, f"{name}: {what}")
        renewals = customer.get("renewals", {})
        for group, item in got:
            match = [e for e in want if e["originalTransactionId"] == item.originalTransactionId]
            if not match:
                continue
            self.expect(item.status is not None and item.status.value == item.rawStatus, f"{name}: status {item.rawStatus} is Apple's")
            transaction = self.transaction(verifier, item.signedTransactionInfo)
            self.equal(transaction.transactionId, match[0]["transactionId"], f"{name}: {what} last transaction of {item.originalTransactionId}")
            self.expect(item.signedTransactionInfo == by_id.get(match[0]["transactionId"]), f"{name}: {what} token is not the posted one")
            self.equal(transaction.originalTransactionId, item.originalTransactionId, f"{name}: {what} originalTransactionId")
            self.equal(transaction.subscriptionGroupIdentifier, group, f"{name}: {what} group of the transaction")
            posted_renewal = renewals.get(item.originalTransactionId)
            if posted_renewal is None:
                self.equal(item.signedRenewalInfo, None, f"{name}: {what} renewal info of {item.originalTransactionId}")
            else:
                self.expect(item.signedRenewalInfo == posted_renewal, f"{name}: {what} renewal info is not the posted one")
                renewal = verifier.verify_and_decode_renewal_info(item.signedRenewalInfo)
                self.counts["verifiedTokens"] += 1
                self.equal(renewal.originalTransactionId, item.originalTransactionId, f"{name}: renewal info originalTransactionId")
        if status_filter is None:
            present = sorted({e["status"] for e in expected})
            for value in present:
                self.statuses(client, verifier, env, customer, query, expected, by_id, [Status(value)], f"statuses status={value}")
            absent = [s for s in Status if s.value not in present][:1]
            if absent:
                self.statuses(client, verifier, env, customer, query, expected, by_id, absent, f"statuses status={absent[0].value}")

    def history(self, client, env, query, request, version, by_id, what):
        """Pages Get Transaction History with `revision` until hasMore is false; the transaction
        ids in answer order."""
        ids, revision, pages = [], None, 0
        while True:
            response = client.get_transaction_history(query, revision, request, version)
            self.counts["calls"] += 1
            pages += 1
            body = self.raw(client, f"history {what}")
            self.types(body, {"revision": str, "hasMore": bool, "signedTransactions": list}, f"history {what}")
            self.scope(body, env, f"history {what}")
            tokens = response.signedTransactions or []
            self.expect(len(tokens) <= PAGE_SIZE, f"history {what}: {len(tokens)} on one page")
            self.expect(bool(response.revision), f"history {what}: no revision")
            for jws in tokens:
                tid = self.transaction_id(jws)
                self.expect(by_id.get(tid) == jws, f"history {what}: {tid} is not the posted token byte for byte")
                ids.append(tid)
            if not response.hasMore:
                break
            self.expect(len(tokens) == PAGE_SIZE, f"history {what}: hasMore after a short page")
            if pages > 50 or not response.revision:
                self.failures.append(f"history {what}: does not end")
                break
            revision = response.revision
        self.counts["historyPages"] += pages
        # The last page's revision asks for what arrived since: nothing yet.
        again = client.get_transaction_history(query, response.revision, request, version)
        self.counts["calls"] += 1
        self.equal((again.signedTransactions or [], again.hasMore), ([], False), f"history {what}: last revision again")
        self.last_revision = response.revision
        return ids

    @staticmethod
    def transaction_id(jws):
        return jwt.decode(jws, options={"verify_signature": False})["transactionId"]

    def filters(self, decoded, order):
        """Requests covering every filter, built from what the customer has."""
        payloads = [decoded[tid] for tid in order]
        purchases = sorted(p.purchaseDate for p in payloads)
        middle = purchases[len(purchases) // 2]
        kinds = sorted({p.rawType for p in payloads})
        groups = sorted({p.subscriptionGroupIdentifier for p in payloads if p.subscriptionGroupIdentifier})
        requests_ = [TransactionHistoryRequest(productTypes=[t for t, v in PRODUCT_TYPES.items() if v == kind]) for kind in kinds]
        requests_ += [
            TransactionHistoryRequest(productTypes=[ProductType.NON_CONSUMABLE]),
            TransactionHistoryRequest(revoked=True),
            TransactionHistoryRequest(revoked=False),
            TransactionHistoryRequest(productIds=[payloads[-1].productId]),
            TransactionHistoryRequest(productIds=sorted({p.productId for p in payloads})[:2]),
            TransactionHistoryRequest(subscriptionGroupIdentifiers=groups),
            TransactionHistoryRequest(inAppOwnershipType=InAppOwnershipType.PURCHASED),
            TransactionHistoryRequest(inAppOwnershipType=InAppOwnershipType.FAMILY_SHARED),
            TransactionHistoryRequest(startDate=middle),
            TransactionHistoryRequest(endDate=middle),
            TransactionHistoryRequest(startDate=purchases[0], endDate=middle + 1, revoked=False, sort=Order.DESCENDING),
            TransactionHistoryRequest(productTypes=[ProductType.AUTO_RENEWABLE, ProductType.CONSUMABLE], revoked=True),
        ]
        return requests_

    @staticmethod
    def matches(payload, request):
        """Apple's documented filter semantics: any value of a filter, every filter."""
        if request.startDate is not None and payload.purchaseDate < request.startDate:
            return False
        if request.endDate is not None and payload.purchaseDate >= request.endDate:
            return False
        if request.productIds and payload.productId not in request.productIds:
            return False
        if request.productTypes and payload.rawType not in [PRODUCT_TYPES[t] for t in request.productTypes]:
            return False
        if request.subscriptionGroupIdentifiers and payload.subscriptionGroupIdentifier not in request.subscriptionGroupIdentifiers:
            return False
        if request.inAppOwnershipType is not None and payload.rawInAppOwnershipType != request.inAppOwnershipType.value:
            return False
        if request.revoked is not None and (payload.revocationDate is not None) != request.revoked:
            return False
        return True

    def refunds(self, client, verifier, env, customer, query, by_id):
        name = customer["name"]
        ids, revision, pages = [], None, 0
        while True:
            response = client.get_refund_history(query, revision)
            self.counts["calls"] += 1
            pages += 1
            body = self.raw(client, f"{name}: refund history")
            self.types(body, {"revision": str, "hasMore": bool, "signedTransactions": list}, f"{name}: refund history")
            for jws in response.signedTransactions or []:
                payload = self.transaction(verifier, jws)
                self.expect(payload.revocationDate is not None, f"{name}: refund history lists {payload.transactionId}, not revoked")
                self.expect(by_id.get(payload.transactionId) == jws, f"{name}: refund {payload.transactionId} not byte for byte")
                ids.append(payload.transactionId)
            if not response.hasMore or pages > 50:
                break
            revision = response.revision
        self.counts["refundPages"] += pages
        self.equal(ids, customer.get("refunds", []), f"{name}: refund history")
        again = client.get_refund_history(query, response.revision)
        self.counts["calls"] += 1
        self.equal((again.signedTransactions or [], again.hasMore), ([], False), f"{name}: refund history, last revision again")

    def notifications(self, client, verifier, env, spec, customers):
        expected = spec["notifications"]
        window = dict(startDate=expected["startDate"], endDate=expected["endDate"])
        payloads = expected["signedPayloads"]
        got = self.notification_pages(client, verifier, NotificationHistoryRequest(**window), "all")
        self.expect(got == payloads, f"notification history: {len(got)} payloads, expected the {len(payloads)} posted, in order, byte for byte")
        decoded = [verifier.verify_and_decode_notification(p) for p in payloads]
        # By type: what the posted notifications of that type are.
        for kind in sorted({d.rawNotificationType for d in decoded}):
            want = [p for p, d in zip(payloads, decoded) if d.rawNotificationType == kind]
            got = self.notification_pages(client, verifier, NotificationHistoryRequest(notificationType=NotificationTypeV2(kind), **window), kind)
            self.expect(got == want, f"notification history notificationType={kind}: {len(got)} payloads, expected {len(want)}")
        # By transaction: the notifications about the customer's transactions.
        for customer in customers.values():
            originals = set()
            for t in customer["transactions"]:
                originals.add(verifier.verify_and_decode_signed_transaction(t["jws"]).originalTransactionId)
            want = [p for p, d in zip(payloads, decoded) if d.data and self.original_of(verifier, d) in originals]
            query = customer["queries"][0]
            got = self.notification_pages(client, verifier, NotificationHistoryRequest(transactionId=query, **window), query)
            self.expect(got == want, f"notification history transactionId={query}: {len(got)} payloads, expected {len(want)}")
        # Nothing failed to reach this server.
        got = self.notification_pages(client, verifier, NotificationHistoryRequest(onlyFailures=True, **window), "onlyFailures")
        self.equal(got, [], "notification history onlyFailures")
        # A window before everything.
        early = NotificationHistoryRequest(startDate=expected["startDate"] - 10_000, endDate=expected["startDate"])
        self.equal(self.notification_pages(client, verifier, early, "early window"), [], "notification history before the first")

    def original_of(self, verifier, decoded):
        if decoded.data.signedTransactionInfo:
            return verifier.verify_and_decode_signed_transaction(decoded.data.signedTransactionInfo).originalTransactionId
        if decoded.data.signedRenewalInfo:
            return verifier.verify_and_decode_renewal_info(decoded.data.signedRenewalInfo).originalTransactionId
        return None

    def notification_pages(self, client, verifier, request, what):
        payloads, token, pages = [], None, 0
        while True:
            response = client.get_notification_history(token, request)
            self.counts["calls"] += 1
            pages += 1
            body = self.raw(client, f"notification history {what}")
            self.types(body, {"paginationToken": str, "hasMore": bool, "notificationHistory": list}, f"notification history {what}")
            items = response.notificationHistory or []
            self.expect(len(items) <= PAGE_SIZE, f"notification history {what}: {len(items)} on one page")
            for raw_item, item in zip(body.get("notificationHistory", []), items):
                verifier.verify_and_decode_notification(item.signedPayload)
                self.counts["verifiedTokens"] += 1
                attempts = item.sendAttempts or []
                self.equal([a.rawSendAttemptResult for a in attempts], ["SUCCESS"], f"notification history {what}: sendAttempts")
                for raw_attempt in raw_item.get("sendAttempts", []):
                    self.types(raw_attempt, {"attemptDate": int, "sendAttemptResult": str}, f"notification history {what}: attempt")
                payloads.append(item.signedPayload)
            if not response.hasMore:
                break
            self.expect(len(items) == PAGE_SIZE, f"notification history {what}: hasMore after a short page")
            if pages > 50 or not response.paginationToken:
                self.failures.append(f"notification history {what}: does not end")
                break
            token = response.paginationToken
        self.counts["notificationPages"] += pages
        return payloads

    def app_transaction(self, client, verifier, expected):
        """Get App Transaction Info: the stored token byte for byte, by its own id and by the
        customer's transaction ids; 4040019 for a customer without one."""
        for query in expected["queries"]:
            response = client.get_app_transaction_info(query)
            self.counts["calls"] += 1
            body = self.raw(client, f"app transaction info {query}")
            self.equal(list(body), ["signedAppTransactionInfo"], f"app transaction info {query} members")
            self.expect(response.signedAppTransactionInfo == expected["jws"], f"app transaction info {query} is not the stored token byte for byte")
            decoded = verifier.verify_and_decode_app_transaction(response.signedAppTransactionInfo)
            self.counts["verifiedTokens"] += 1
            self.equal(decoded.appTransactionId, expected["appTransactionId"], f"app transaction info {query}: appTransactionId")
        for query in expected["withoutAppTransaction"]:
            self.api_error(
                lambda: client.get_app_transaction_info(query), 404, APIError.APP_TRANSACTION_DOES_NOT_EXIST_ERROR, f"app transaction info {query}")

    def errors(self, client, env, spec):
        first = spec["customers"][0]["queries"][0]
        empty = TransactionHistoryRequest()
        V2 = GetTransactionHistoryVersion.V2
        bad = APIError.INVALID_TRANSACTION_ID
        for tid in ("abc", "12a4", "1" * 33):
            self.api_error(lambda: client.get_transaction_info(tid), 400, bad, f"transaction info {tid}")
            self.api_error(lambda: client.get_all_subscription_statuses(tid), 400, bad, f"statuses {tid}")
            self.api_error(lambda: client.get_transaction_history(tid, None, empty, V2), 400, bad, f"history {tid}")
            self.api_error(lambda: client.get_refund_history(tid, None), 400, bad, f"refund history {tid}")
            self.api_error(lambda: client.get_app_transaction_info(tid), 400, bad, f"app transaction info {tid}")
        missing = APIError.TRANSACTION_ID_NOT_FOUND
        for tid in spec["notFound"]:
            self.api_error(lambda: client.get_transaction_info(tid), 404, missing, f"transaction info {tid}")
            self.api_error(lambda: client.get_all_subscription_statuses(tid), 404, missing, f"statuses {tid}")
            self.api_error(lambda: client.get_transaction_history(tid, None, empty, V2), 404, missing, f"history {tid}")
            self.api_error(lambda: client.get_refund_history(tid, None), 404, missing, f"refund history {tid}")
            self.api_error(lambda: client.get_app_transaction_info(tid), 404, missing, f"app transaction info {tid}")
        # Values Apple's enums cannot hold, sent through the same client.
        fake = lambda value: SimpleNamespace(value=value)  # noqa: E731
        self.api_error(lambda: client.get_all_subscription_statuses(first, [fake(9)]), 400, APIError.INVALID_STATUS, "status=9")
        self.api_error(lambda: client.get_transaction_history(first, "not-a-revision", empty, V2), 400, APIError.INVALID_REQUEST_REVISION, "revision")
        self.api_error(lambda: client.get_refund_history(first, "not-a-revision"), 400, APIError.INVALID_REQUEST_REVISION, "refund revision")
        self.api_error(
            lambda: client.get_transaction_history(first, None, TransactionHistoryRequest(startDate=2_000, endDate=1_000), V2),
            400, APIError.START_DATE_AFTER_END_DATE, "history startDate after endDate")
        self.api_error(
            lambda: client.get_transaction_history(first, None, TransactionHistoryRequest(sort=fake("SIDEWAYS")), V2),
            400, APIError.INVALID_SORT, "sort")
        self.api_error(
            lambda: client.get_transaction_history(first, None, TransactionHistoryRequest(productTypes=[fake("SUBSCRIPTION")]), V2),
            400, APIError.INVALID_PRODUCT_TYPE, "productType")
        self.api_error(
            lambda: client.get_transaction_history(first, None, TransactionHistoryRequest(inAppOwnershipType=fake("BORROWED")), V2),
            400, APIError.INVALID_IN_APP_OWNERSHIP_TYPE, "inAppOwnershipType")
        self.api_error(
            lambda: client.get_transaction_history(first, None, TransactionHistoryRequest(revoked="maybe"), V2),
            400, APIError.INVALID_REVOKED, "revoked")
        window = spec.get("notifications", {"startDate": 1, "endDate": 2})
        dates = NotificationHistoryRequest(startDate=window["startDate"], endDate=window["endDate"])
        self.api_error(
            lambda: client.get_notification_history("not-a-token", dates),
            400, APIError.INVALID_PAGINATION_TOKEN, "paginationToken")
        self.api_error(
            lambda: client.get_notification_history(None, NotificationHistoryRequest(startDate=2_000, endDate=1_000)),
            400, APIError.START_DATE_AFTER_END_DATE, "notification history startDate after endDate")
        # The error body is read only because its Content-Type is exactly application/json.
        self.api_error(lambda: client.get_transaction_info("abc"), 400, bad, "content type")
        self.equal(client.last.headers.get("content-type"), "application/json", "error Content-Type")
        # Unknown key id, and an app the key is not for: 401, empty body.
        for other in (self.client(env, spec["prefix"], key_id="UNKNOWN999"), self.client(env, spec["prefix"], bundle_id="com.example.other")):
            self.api_error(lambda: other.get_all_subscription_statuses(first), 401, None, "refused JWT")
            self.equal(other.last.content, b"", "401 body")

    def post(self, client, verifier, env, post, customer):
        """POST /inApps/v1/transactions (ours, not in Apple's client): the same JWT, Apple's
        StatusResponse back; afterwards the last history revision returns just that transaction."""
        name = customer["name"]
        revision_before = self.history(
            client, env, customer["queries"][0], TransactionHistoryRequest(), GetTransactionHistoryVersion.V2,
            {t["id"]: t["jws"] for t in customer["transactions"]}, f"{name} before post")
        revision = self.last_revision
        self.equal(revision_before, [t["id"] for t in customer["transactions"]], f"{name}: history before post")
        url = client._base_url + "/inApps/v1/transactions"
        headers = {"Authorization": f"Bearer {client._generate_token()}", "Content-Type": "application/json", "Accept": "application/json"}
        response = requests.post(url, headers=headers, json={"signedTransactionInfo": post["signedTransactionInfo"]}, timeout=30)
        self.counts["calls"] += 1
        self.equal(response.status_code, 200, f"{name}: POST /inApps/v1/transactions status ({response.text[:200]})")
        self.equal(response.headers.get("content-type"), "application/json", f"{name}: POST Content-Type")
        body = response.json()
        self.scope(body, env, f"{name}: POST answer")
        answer = _get_cattrs_converter(StatusResponse).structure(body, StatusResponse)
        items = [(g.subscriptionGroupIdentifier, i.originalTransactionId, i.rawStatus) for g in answer.data or [] for i in g.lastTransactions or []]
        want = [(e["subscriptionGroupIdentifier"], e["originalTransactionId"], e["status"]) for e in post["statuses"]]
        self.equal(sorted(items), sorted(want), f"{name}: POST answer statuses")
        by_id = {t["id"]: t["jws"] for t in customer["transactions"]}
        by_id[post["transactionId"]] = post["signedTransactionInfo"]
        self.statuses(client, verifier, env, customer, customer["queries"][0], post["statuses"], by_id, None, "statuses after post")
        info = client.get_transaction_info(post["transactionId"])
        self.expect(info.signedTransactionInfo == post["signedTransactionInfo"], f"{name}: posted transaction not byte for byte")
        later = client.get_transaction_history(customer["queries"][0], revision, TransactionHistoryRequest(), GetTransactionHistoryVersion.V2)
        self.counts["calls"] += 2
        self.equal(
            ([self.transaction_id(j) for j in later.signedTransactions or []], later.hasMore),
            ([post["transactionId"]], False),
            f"{name}: the last revision after a post",
        )


def main():
    source = open(sys.argv[1]) if len(sys.argv) > 1 else sys.stdin
    config = json.load(source)
    summary = Conformance(config).run()
    print(json.dumps(summary, indent=2, sort_keys=True))
    return 0 if summary["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
