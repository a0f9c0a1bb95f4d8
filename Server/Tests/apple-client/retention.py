#!/usr/bin/env python3
"""receipt-server's Get Retention Message answers read with Apple's own model.

Run by RetentionAppleClientTests (Server/Tests/ReceiptServerTests/RetentionMessaging) with the
python of the virtual environment Server/ci makes (app-store-server-library, pinned). The first
argument names a JSON file holding a list of answer bodies (each the text the server answered
with 200). Each is structured into `RealtimeResponseBody` with the library's own cattrs converter,
as the library reads its models; prints a JSON list of what Apple's model holds for each:
{"message": {"messageIdentifier"}} or {"alternateProduct": {"messageIdentifier", "productId"}},
plus "options": how many of Apple's mutually exclusive options are set. Exits 1 when a body does
not structure.
"""

import json
import sys

from appstoreserverlibrary.models.LibraryUtility import _get_cattrs_converter
from appstoreserverlibrary.models.RealtimeResponseBody import RealtimeResponseBody


def read(body):
    response = _get_cattrs_converter(RealtimeResponseBody).structure(json.loads(body), RealtimeResponseBody)
    options = [response.message, response.alternateProduct, response.promotionalOffer, response.advancedCommerceInfo]
    summary = {"options": sum(option is not None for option in options)}
    if response.message is not None:
        summary["message"] = {"messageIdentifier": str(response.message.messageIdentifier)}
    if response.alternateProduct is not None:
        summary["alternateProduct"] = {
            "messageIdentifier": str(response.alternateProduct.messageIdentifier),
            "productId": response.alternateProduct.productId,
        }
    return summary


def main():
    with open(sys.argv[1], encoding="utf-8") as file:
        bodies = json.load(file)
    try:
        print(json.dumps([read(body) for body in bodies]))
    except Exception as error:  # noqa: BLE001 - any failure to structure is the finding
        print(json.dumps({"error": repr(error)}))
        sys.exit(1)


if __name__ == "__main__":
    main()
