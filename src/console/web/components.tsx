/** Small building blocks shared by the pages: copy, secrets, confirmations, notices. */
import type { ComponentChildren } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";

/** Copies `text` to the clipboard (with a fallback for browsers that refuse the async clipboard). */
export async function copyText(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    return;
  } catch {
    const area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.style.position = "fixed";
    area.style.opacity = "0";
    document.body.appendChild(area);
    area.select();
    const ok = document.execCommand("copy");
    area.remove();
    if (!ok) throw new Error("The browser did not allow copying; select the text and copy it by hand.");
  }
}

/** A button that copies `value` and says so to screen readers. */
export function CopyButton(props: { value: string; label: string }) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  useEffect(() => {
    if (state === "idle") return;
    const timer = setTimeout(() => setState("idle"), 2000);
    return () => clearTimeout(timer);
  }, [state]);
  return (
    <>
      <button
        type="button"
        class="secondary"
        aria-label={props.label}
        onClick={() =>
          copyText(props.value).then(
            () => setState("copied"),
            () => setState("failed"),
          )
        }
      >
        {state === "copied" ? "Copied" : "Copy"}
      </button>
      <span class="visually-hidden" role="status">
        {state === "copied" ? "Copied to the clipboard." : state === "failed" ? "Copying failed." : ""}
      </span>
    </>
  );
}

/** Shows a secret masked until "Reveal" is pressed; `load` fetches it when it is not at hand. */
export function Secret(props: { label: string; value?: string; load?: () => Promise<string>; id?: string }) {
  const [value, setValue] = useState<string | null>(props.value ?? null);
  const [shown, setShown] = useState(false);
  const [error, setError] = useState("");
  useEffect(() => {
    setValue(props.value ?? null);
    setShown(false);
  }, [props.value]);
  const reveal = async () => {
    if (shown) {
      setShown(false);
      return;
    }
    try {
      if (value === null && props.load) setValue(await props.load());
      setShown(true);
      setError("");
    } catch (e) {
      setError(e instanceof Error ? e.message : "Could not load it.");
    }
  };
  return (
    <span class="secret">
      <code id={props.id} class="secret-value" aria-label={props.label} data-revealed={shown ? "true" : "false"}>
        {shown && value !== null ? value : "••••••••••••••••••••"}
      </code>
      <button type="button" class="secondary" aria-pressed={shown} aria-label={`${shown ? "Hide" : "Reveal"} ${props.label}`} onClick={reveal}>
        {shown ? "Hide" : "Reveal"}
      </button>
      {value !== null ? (
        <CopyButton value={value} label={`Copy ${props.label}`} />
      ) : props.load ? (
        <LoadAndCopy label={props.label} load={props.load} onLoaded={setValue} />
      ) : null}
      {error ? (
        <span role="alert" class="error">
          {error}
        </span>
      ) : null}
    </span>
  );
}

function LoadAndCopy(props: { label: string; load: () => Promise<string>; onLoaded: (v: string) => void }) {
  const [state, setState] = useState("Copy");
  return (
    <button
      type="button"
      class="secondary"
      aria-label={`Copy ${props.label}`}
      onClick={async () => {
        try {
          const value = await props.load();
          props.onLoaded(value);
          await copyText(value);
          setState("Copied");
        } catch {
          setState("Copy failed");
        }
      }}
    >
      {state}
    </button>
  );
}

/** A modal confirmation (native <dialog>: focus is kept inside and Escape cancels). */
export function Confirm(props: {
  open: boolean;
  title: string;
  children: ComponentChildren;
  confirmLabel: string;
  danger?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
  /** The title's element id: give each dialog of a page its own. */
  titleId?: string;
}) {
  const titleId = props.titleId ?? "confirm-title";
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (props.open && !dialog.open) dialog.showModal();
    if (!props.open && dialog.open) dialog.close();
  }, [props.open]);
  return (
    <dialog ref={ref} aria-labelledby={titleId} onClose={props.onCancel} onCancel={props.onCancel}>
      <h2 id={titleId}>{props.title}</h2>
      <div class="dialog-body">{props.children}</div>
      <div class="actions">
        <button type="button" class="secondary" onClick={props.onCancel}>
          Cancel
        </button>
        <button type="button" class={props.danger ? "danger" : ""} onClick={props.onConfirm}>
          {props.confirmLabel}
        </button>
      </div>
    </dialog>
  );
}

/** A message region: errors interrupt (alert), other news waits its turn (status). */
export function Notice(props: { kind: "error" | "info" | "warning"; children: ComponentChildren }) {
  return (
    <div class={`notice ${props.kind}`} role={props.kind === "error" ? "alert" : "status"}>
      {props.children}
    </div>
  );
}

/** The body of a page: a heading that takes focus when the page opens, so screen readers announce it. */
export function Page(props: { title: string; children: ComponentChildren }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => ref.current?.focus(), [props.title]);
  return (
    <section aria-labelledby="page-title">
      <h1 id="page-title" tabIndex={-1} ref={ref}>
        {props.title}
      </h1>
      {props.children}
    </section>
  );
}
