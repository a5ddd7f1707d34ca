import { Modal, Text } from '@shopify/polaris';
import { format } from '../i18n';
import { useMessages } from '../i18n/context';

/**
 * Asks before a delete: nothing in the admin is deleted on one click. `name` is what goes, as the
 * merchant knows it; `consequences`, what else the delete changes (members left without a tier, a
 * tier that no longer gives a reward), in the merchant's words.
 */
export function ConfirmDelete({
  name,
  consequences = [],
  onConfirm,
  onClose,
}: {
  name: string | null;
  consequences?: string[];
  onConfirm(): void;
  onClose(): void;
}) {
  const { common } = useMessages();
  return (
    <Modal
      open={name !== null}
      onClose={onClose}
      title={format(common.confirmDelete.title, { name: name ?? '' })}
      primaryAction={{
        content: common.delete,
        destructive: true,
        onAction: () => {
          onClose();
          onConfirm();
        },
      }}
      secondaryActions={[{ content: common.cancel, onAction: onClose }]}
    >
      <Modal.Section>
        {consequences.map((line) => (
          <Text as="p" key={line}>
            {line}
          </Text>
        ))}
        <Text as="p">{common.confirmDelete.body}</Text>
      </Modal.Section>
    </Modal>
  );
}
