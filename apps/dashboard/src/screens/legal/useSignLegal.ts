// Signing a document (owners only), from the Legal screens and the reminders alike: one request
// at a time per document, its refusal kept beside that document.
import { useState } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { errorMessage, qk } from "../../api/client";
import * as endpoints from "../../api/endpoints";
import { useToast } from "../../ui/toast-context";
import { documentName, type LegalType } from "./documents";

export function useSignLegal() {
  const queryClient = useQueryClient();
  const toast = useToast();
  const [errors, setErrors] = useState<Partial<Record<LegalType, string>>>({});
  const [signedHere, setSignedHere] = useState<LegalType[]>([]);
  const sign = useMutation({
    mutationFn: (document: LegalType) => endpoints.legal.sign(document),
    onMutate: (document) => setErrors((e) => ({ ...e, [document]: undefined })),
    onSuccess: async (_record, document) => {
      await queryClient.invalidateQueries({ queryKey: qk.legal });
      setSignedHere((list) => [...list, document]);
      toast.notify(`Signed the ${documentName(document).toLowerCase()}`, "ok");
    },
    onError: (err, document) => setErrors((e) => ({ ...e, [document]: errorMessage(err) })),
  });
  return {
    sign: (document: LegalType) => sign.mutate(document),
    pending: (document: LegalType) => sign.isPending && sign.variables === document,
    error: (document: LegalType) => errors[document],
    /** Whether this screen signed `document` (its button is gone: say so where it was). */
    signedHere: (document: LegalType) => signedHere.includes(document),
  };
}

export type LegalSigner = ReturnType<typeof useSignLegal>;
