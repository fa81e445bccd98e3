# The schemathesis version the committed schemathesis.toml was tried with; another may add checks or rename
# them. Installed with the python3 on PATH when missing or different.
SCHEMATHESIS_VERSION=4.32.5

ensure_schemathesis() {
    if command -v st >/dev/null 2>&1 && [ "$(st --version 2>/dev/null | awk '{print $NF}')" = "$SCHEMATHESIS_VERSION" ]
    then
        return 0
    fi
    echo "==> installing schemathesis $SCHEMATHESIS_VERSION"
    python3 -m pip install --quiet "schemathesis==$SCHEMATHESIS_VERSION"
    hash -r
}
