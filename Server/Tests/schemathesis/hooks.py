"""Schemathesis hooks for Server/ci-openapi: some generated cases carry the run's real credentials
and receipt, so that the hosted API and verifyReceipt answer beyond 401 and 21002 (status 0 and
the receipt schemas included). The values come from the environment the script sets."""
import base64
import os
import random

import schemathesis

APIKEY = os.environ.get("ST_APIKEY", "")
TOKEN = os.environ.get("ST_TOKEN", "")
RECEIPT = os.environ.get("ST_RECEIPT", "")


@schemathesis.hook
def map_case(context, case):
    path = case.operation.path
    body = case.body
    if path.startswith("/v1/receipt") and isinstance(body, dict):
        if random.random() < 0.6:
            body["apikey"] = APIKEY
            body["token"] = TOKEN
        if random.random() < 0.5:
            body["receipt"] = RECEIPT
    elif path.endswith("/verifyReceipt") and case.method == "POST" and isinstance(body, dict):
        if random.random() < 0.4:
            body["receipt-data"] = RECEIPT
    return case
