import { type IframeHTMLAttributes, useEffect, useRef, useState } from 'react';

/** A phone's width, the narrowest the storefront's widget is laid out for: narrower, its tabs split words. */
const PHONE_WIDTH = 375;

/**
 * An iframe laid out at least as wide as a phone and scaled down to fit a narrower column, so a
 * preview beside a form shows the widget as a phone does, only smaller.
 */
export function PhoneSizedFrame({ height, style, ...frame }: IframeHTMLAttributes<HTMLIFrameElement> & { height: number }) {
  const box = useRef<HTMLDivElement>(null);
  const [scale, setScale] = useState(1);
  useEffect(() => {
    const column = box.current;
    if (!column) return;
    const observer = new ResizeObserver(([entry]) => setScale(Math.min(1, entry!.contentRect.width / PHONE_WIDTH)));
    observer.observe(column);
    return () => observer.disconnect();
  }, []);
  return (
    <div ref={box} style={{ height: height * scale, overflow: 'hidden' }}>
      <iframe
        {...frame}
        style={{ ...style, width: scale < 1 ? PHONE_WIDTH : '100%', height, transform: `scale(${scale})`, transformOrigin: 'top left' }}
      />
    </div>
  );
}
