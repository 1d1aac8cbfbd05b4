// A page's dialog, drawn over the whole window outside the page: closed while its page is hidden (a
// list left for another tab stays mounted, src/app/layout/kept-pages.tsx), open again when it is shown.
import { Modal, type ModalProps } from "antd";
import { usePageShown } from "../app/page-shown.ts";

export function PageModal({ open = true, ...props }: ModalProps) {
  const shown = usePageShown();
  return <Modal {...props} open={open && shown} />;
}
