extension InspectorPage {
    /// The page's markup; every result element has an id the script (and the browser test) uses.
    static let body = """
        <header>
        <h1>Receipt inspector</h1>
        <p>Drop an App Store receipt (binary or base64) or a StoreKit&nbsp;2 signed token (JWS), or paste it below.
        This server verifies it as its <code>verifyReceipt</code> endpoint would and shows why it passes or fails.
        Nothing is stored.</p>
        </header>
        <main>
        <section id="input">
        <label id="drop" for="file" tabindex="0"><strong>Drop a file here</strong><span>or click to choose one</span>
        <input type="file" id="file"></label>
        <div id="paste-box">
        <textarea id="paste" placeholder="…or paste base64 or a JWS here" spellcheck="false" autocomplete="off"></textarea>
        <button id="inspect" type="button">Inspect</button>
        </div>
        </section>
        <p id="status" role="status"></p>
        <section id="result" hidden>
        <div id="verdict" data-state=""></div>
        <p id="message"></p>
        <dl id="failure" hidden>
        <dt>Rule</dt><dd id="rule"></dd>
        <dt>Certificate</dt><dd id="failed-certificate"></dd>
        </dl>
        <p id="context"></p>
        <h2>Certificates</h2>
        <p id="chain-note" class="note"></p>
        <div class="scroll"><table id="chain"><thead><tr><th>Role</th><th>Subject</th><th>Issuer</th><th>Not before (UTC)</th>
        <th>Not after (UTC)</th><th>SHA-256</th></tr></thead><tbody></tbody></table></div>
        <h2>Fields</h2>
        <div class="scroll"><table id="fields"><thead><tr><th>Field</th><th>Value, or UTC</th><th>Los Angeles</th></tr></thead>
        <tbody></tbody></table></div>
        <div id="purchases-section">
        <h2>In-app purchases (<span id="purchase-count">0</span>)</h2>
        <div class="scroll"><table id="purchases"><thead><tr><th>Product</th><th>Transaction</th><th>Original transaction</th>
        <th>Qty</th><th>Purchased (UTC)</th><th>Purchased (Los Angeles)</th><th>Expires (UTC)</th><th>Expires (Los Angeles)</th>
        <th>Cancelled (UTC)</th></tr></thead><tbody></tbody></table></div>
        </div>
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
