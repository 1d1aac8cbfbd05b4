// Refine's notifications as antd messages and notifications, inside antd's App context (theme, locale).
import type { NotificationProvider } from "@refinedev/core";
import { App } from "antd";

export function useNotificationProvider(): NotificationProvider {
  const { notification } = App.useApp();
  return {
    open: ({ key, message, description, type }) => {
      if (type === "progress") return;
      notification[type]({ key, message, description, placement: "topRight" });
    },
    close: (key) => notification.destroy(key),
  };
}
