declare global {
  interface Window {
    shopify?: { idToken(): Promise<string> };
  }
}

/** The route's status and JSON body (null when it answered no JSON); status 0 when the file was not sent. */
export type Uploaded = { status: number; body: unknown };

/**
 * Sends a file to one of the app's routes as its body, reporting the upload's progress (0–100).
 * An XMLHttpRequest, because fetch reports no upload progress; it carries the App Bridge session
 * token itself, as App Bridge only adds it to fetch.
 */
export async function uploadFile(url: string, file: File, onProgress: (percent: number) => void): Promise<Uploaded> {
  const token = await window.shopify?.idToken();
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    xhr.setRequestHeader('content-type', 'text/csv');
    if (token) xhr.setRequestHeader('authorization', `Bearer ${token}`);
    xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(Math.round((e.loaded / e.total) * 100));
    xhr.onload = () => {
      onProgress(100);
      let body: unknown = null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        body = null;
      }
      resolve({ status: xhr.status, body });
    };
    xhr.onerror = () => resolve({ status: 0, body: null });
    xhr.send(file);
  });
}
