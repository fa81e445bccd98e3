// "Only what I may use" (`license=reusable`, docs/filters.md), remembered in this browser: every tap on the
// switch, on the filter bar or the start page, is kept, off as well as on. The address says what a page
// shows; this says only how a fresh visit and a search from the start page begin.
const KEY = 'tessera.reusable';

/** Whether the switch was on when last tapped. */
export const rememberedMayUseOnly = () => localStorage.getItem(KEY) === 'on';

export function rememberMayUseOnly(on) {
    localStorage.setItem(KEY, on ? 'on' : 'off');
}
