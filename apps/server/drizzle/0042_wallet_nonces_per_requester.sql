-- A wallet keeps several live sign-in nonces, one set per requesting address (users/wallet.service.ts): each
-- row names the client address key it was issued to (an IPv6 /64, lib/client-address.ts) and whether that
-- address had signed in to the wallet's account, so a stranger's requests never push out the owner's nonce
-- and the nonces strangers may hold for one wallet are capped. Rows issued before this have neither ('',
-- false) and expire within 10 minutes.
ALTER TABLE "wallet_nonces" ADD COLUMN "requester" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "wallet_nonces" ADD COLUMN "known" boolean DEFAULT false NOT NULL;
