/// The paint benchmark's measurement, run inside the page (docs/benchmarks.md, "paint").
///
/// From the Return key's `keydown` (its `event.timeStamp`, on the page's clock) to the moment the 20th result
/// thumbnail is on screen. An image counts as painted at the first task after the animation frame that follows
/// its `load` and `decode()`: `decode()` resolves once its pixels are ready, that frame draws them, and a
/// message posted from the frame's callback runs once the frame (with its paint) is done. The Element Timing API
/// gives the same moment from the renderer (`renderTime`): the probe marks every result image with
/// `elementtiming` and records both, so each checks the other.
///
/// Per image it also keeps when its tile was inserted (the stream's section arrived and was drawn), when the
/// image loaded, and the image request's time to first byte from Resource Timing (the proxy's time).
///
/// The bench waits for a search in the page (`wait`), not by asking over WebDriver every 50 ms: each question
/// went through chromedriver, the browser process and the renderer's main thread, on the two cores the search
/// was using, and painted the 20th thumbnail about 14 ms later (docs/benchmarks.md, "paint").
enum PaintProbe {
    /// Installs the probe once per document; the web app navigates without reloading, so one install serves
    /// every search. Only images inside `#results` and added after the keydown count.
    static let install = """
        if (window.__paint) return true;
        const bench = window.__paint = { run: null };
        // Which images are in the window, as the renderer finds while it draws: asking each image's box on
        // every read would force a layout of its tile (a tile skipped by content-visibility: once per tile).
        bench.seen = new IntersectionObserver((entries) => {
            for (const entry of entries) {
                if (entry.target.paintRecord) entry.target.paintRecord.visible = entry.isIntersecting;
            }
        });
        document.addEventListener('keydown', (event) => {
            if (event.key !== 'Enter') return;
            performance.clearResourceTimings();
            bench.run = { start: event.timeStamp, firstTile: null, images: [], element: [] };
        }, true);
        const watch = (run, img) => {
            if (!img.closest('#results') || img.closest('.skeleton')) return;
            img.setAttribute('elementtiming', 'paint-bench');
            const record = {
                img, inserted: performance.now(), loaded: null, painted: null, ttfb: null, visible: null,
            };
            run.images.push(record);
            img.paintRecord = record;
            bench.seen.observe(img);
            const loaded = () => {
                record.loaded = performance.now();
                img.decode().catch(() => {}).then(() => requestAnimationFrame(() => {
                    const channel = new MessageChannel();
                    channel.port1.onmessage = () => { record.painted = performance.now(); };
                    channel.port2.postMessage(0);
                }));
                const timing = performance.getEntriesByName(img.currentSrc)[0];
                if (timing && timing.responseStart > 0) record.ttfb = timing.responseStart - timing.requestStart;
            };
            if (img.complete && img.naturalWidth > 0) loaded(); else img.addEventListener('load', loaded, { once: true });
        };
        new MutationObserver((mutations) => {
            const run = bench.run;
            if (!run) return;
            for (const mutation of mutations) {
                for (const node of mutation.addedNodes) {
                    if (node.nodeType !== 1) continue;
                    const images = node.matches('img') ? [node] : [...node.querySelectorAll('img')];
                    for (const img of images) watch(run, img);
                    if (run.firstTile === null && node.closest('#results') && images.length) {
                        run.firstTile = performance.now();
                    }
                }
            }
        }).observe(document.body, { childList: true, subtree: true });
        try {
            new PerformanceObserver((list) => {
                const run = bench.run;
                if (!run) return;
                for (const entry of list.getEntries()) {
                    const time = entry.renderTime || entry.loadTime;
                    if (entry.identifier === 'paint-bench' && time >= run.start) run.element.push([entry.element, time]);
                }
            }).observe({ type: 'element' });
        } catch (error) { bench.noElementTiming = String(error); }
        // The current run once the stream is done (no skeleton tile left) and every result image in the window
        // is painted, else null. Times are milliseconds from the keydown, -1 when not known (yet): `painted` is
        // the `count`th image painted, wherever it is (pictures within Chromium's lazy-loading distance load
        // too); `window` the last image in the window painted, `shown` how many there are.
        bench.read = (count) => {
            const run = bench.run;
            if (!run || document.querySelector('#results .skeleton')) return null;
            // Nothing here reads a box: a read must not make the page lay itself out (see `seen` above).
            const current = run.images.filter((image) => image.img.isConnected);
            if (current.some((image) => image.visible === null)) return null;
            const records = current.filter((image) => image.visible);
            if (!records.length || records.some((image) => image.painted === null)) return null;
            const shown = records.map((image) => image.img);
            const painted = run.images.filter((image) => image.painted !== null)
                .sort((a, b) => a.painted - b.painted);
            const shownElement = run.element.filter(([img]) => shown.includes(img)).map(([, time]) => time);
            const ttfbs = records.map((image) => image.ttfb).filter((value) => value !== null)
                .sort((a, b) => a - b);
            return {
                painted: painted.length >= count ? painted[count - 1].painted - run.start : -1,
                window: Math.max(...records.map((image) => image.painted)) - run.start,
                shown: shown.length,
                element: shownElement.length === shown.length ? Math.max(...shownElement) - run.start : -1,
                firstTile: run.firstTile === null ? -1 : run.firstTile - run.start,
                lastLoaded: Math.max(...records.map((image) => image.loaded)) - run.start,
                ttfb: ttfbs.length ? ttfbs[Math.floor((ttfbs.length - 1) / 2)] : -1,
            };
        };
        return true;
        """

    /// Waits in the page, checking every 50 ms on its own timer, until the run is read (`bench.read`) with its
    /// `arguments[0]`th image painted, or for up to 5 s more once the window is painted (pictures past the
    /// window load a little later, or, lazy, not at all); null if neither comes within `arguments[1]` ms.
    static let wait = """
        const [count, limit, done] = arguments;
        const bench = window.__paint;
        const started = performance.now();
        let windowDone = null;
        const check = () => {
            const sample = bench.read(count);
            const now = performance.now();
            if (sample && sample.painted >= 0) return done(sample);
            if (sample) {
                windowDone ??= now;
                if (now - windowDone > 5000) return done(sample);
            }
            if (now - started > limit) return done(sample);
            setTimeout(check, 50);
        };
        check();
        """

    /// The reference page: on Return, 20 images straight from the stand-in image host, no app in between.
    static func referencePage(imageOrigin: String, count: Int) -> String {
        """
        <!doctype html><html><head><meta charset="utf-8"><title>paint reference</title>
        <style>#results { display: flex; flex-wrap: wrap; gap: 4px; list-style: none; padding: 0 }
        #results img { width: 180px; height: 120px; object-fit: cover }</style></head>
        <body><input id="q"><ul id="results"></ul><script>
        document.getElementById('q').addEventListener('keydown', (event) => {
            if (event.key !== 'Enter') return;
            const q = encodeURIComponent(event.target.value);
            const list = document.getElementById('results');
            list.replaceChildren();
            for (let i = 0; i < \(count); i++) {
                const item = document.createElement('li');
                item.className = 'tile';
                const img = document.createElement('img');
                img.src = '\(imageOrigin)/pixabay/cdn/reference-' + q + '-' + i + '_640.jpg';
                item.append(img);
                list.append(item);
            }
        });
        </script></body></html>
        """
    }
}
