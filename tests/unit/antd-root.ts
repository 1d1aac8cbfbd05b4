// antd as the console sets it up, for tests that render it: App (messages, modals) without motion,
// and its generated CSS kept out of the document.
import "./dom-setup.ts";
import { StyleProvider } from "@ant-design/cssinjs";
import { App, ConfigProvider } from "antd";
import { createElement, type ReactNode } from "react";

// antd's generated CSS goes to a detached element: jsdom then neither parses it nor cascades it on
// every getComputedStyle (about a fifth less CPU for the list screen's tests). Tests check roles and
// text, not looks.
const styleSink = document.createElement("div");

/** antd's App without animations: messages appear and leave at once, not after a motion jsdom never runs. */
export function AntdRoot({ children }: { children: ReactNode }) {
  return createElement(
    StyleProvider,
    { container: styleSink },
    createElement(ConfigProvider, { theme: { token: { motion: false } } }, createElement(App, null, children)),
  );
}
