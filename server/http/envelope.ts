// The one success envelope of the API (DESIGN §4): { code: 200, message: "ok", data }.
export const ok = (data: unknown) => ({ code: 200, message: "ok", data });
