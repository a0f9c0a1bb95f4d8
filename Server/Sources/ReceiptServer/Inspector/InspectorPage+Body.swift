extension InspectorPage {
    /// The page's markup; every result element has an id the script (and the browser test) uses.
    /// What a person looks at first comes first: the verdict and summary, the subscriptions'
    /// timelines, the purchases with their badges, then fields, certificates and the raw JSON.
    static let body = """
        <header>
        <h1>Receipt inspector</h1>
        <p>Drop an App Store receipt (binary or base64) or a StoreKit&nbsp;2 signed token (JWS, alone or in the
        <code>{"signedPayload": …}</code> body Apple posts), or paste it below.
        This server verifies it as its <code>verifyReceipt</code> endpoint would and shows why it passes or fails.
        Nothing is stored.</p>
        </header>
        <main>
        <section id="input">
        <label id="drop" for="file" tabindex="0"><strong>Drop a file here</strong><span>or click to choose one</span>
        <input type="file" id="file"></label>
        <div id="paste-box">
        <textarea id="paste" placeholder="…or paste base64 or a JWS here" spellcheck="false" autocomplete="off"></textarea>
        <div class="buttons"><button id="inspect" type="button">Inspect</button><button id="clear" type="button">Clear</button>
        <span class="note">Ctrl+Enter inspects</span></div>
        </div>
        </section>
        <p id="status" role="status"></p>
        <section id="result" hidden>
        <div id="verdict" data-state=""></div>
        <p id="summary"></p>
        <p id="message"></p>
        <dl id="failure" hidden>
        <dt>Rule</dt><dd id="rule"></dd>
        <dt>Certificate</dt><dd id="failed-certificate"></dd>
        </dl>
        <p id="context"></p>
        <p class="note"><label><input type="checkbox" id="zone-la"> Show Los Angeles time</label>
        (dates are UTC; hover one for both)</p>
        <div id="subscriptions-section">
        <h2>Subscriptions</h2>
        <div id="subscriptions"></div>
        <p class="legend note"><span><span class="swatch active"></span>active</span> <span><span class="swatch expired"></span>expired</span>
        <span><span class="swatch trial"></span>trial</span> <span><span class="swatch refunded"></span>refunded</span>
        <span><span class="swatch upgraded"></span>upgraded</span> <span><span class="swatch gap"></span>gap</span>
        <span><span class="swatch now"></span>now</span></p>
        </div>
        <div id="purchases-section">
        <h2>In-app purchases (<span id="purchase-count">0</span>)</h2>
        <table id="purchases" class="cards"><thead><tr><th>Product</th><th>Status</th><th>Purchased</th><th>Expires</th>
        <th>Cancelled</th><th>Transaction</th></tr></thead><tbody></tbody></table>
        </div>
        <h2>Fields <span id="field-badges" class="badges"></span></h2>
        <table id="fields" class="pairs"><thead><tr><th>Field</th><th>Value</th></tr></thead><tbody></tbody></table>
        <div id="nested"></div>
        <h2>Certificates</h2>
        <p id="chain-note" class="note"></p>
        <table id="chain" class="cards"><thead><tr><th>Role</th><th>Subject</th><th>Issuer</th><th>Valid from</th>
        <th>Valid until</th><th>SHA-256</th></tr></thead><tbody></tbody></table>
        <h2>Raw JSON</h2>
        <pre id="raw"></pre>
        <div id="curl-section">
        <h2>Verify with curl</h2>
        <p class="note">The same receipt at this server's <code>verifyReceipt</code> endpoint:</p>
        <pre id="curl"></pre>
        <button id="copy-curl" type="button">Copy</button>
        </div>
        </section>
        </main>
        """
}
