// kikimimi bridge: an Arduino + MFRC522 13.56 MHz reader speaking kikimimi's `uid-line` protocol.
//
//   READY kikimimi-bridge 1      once at start (the host ignores it, `devices watch` shows it)
//   UID 04A1B2C3D4E5F6           a tag arrived (4, 7 or 10 byte UID in hex)
//   REMOVED                      it left
//   # ...                        information / errors, ignored by the host
//
// 115200 baud, lines end with \r\n. Needs the "MFRC522" library by GithubCommunity (miguelbalboa),
// Arduino IDE: Tools > Manage Libraries > MFRC522. Wiring (Uno/Nano): see hardware_docs/wiring.md.
//
// The MFRC522 "flicker": a held card, once selected, does not answer the REQA that
// PICC_IsNewCardPresent() sends until it is reset, so that call alternates true/false while the
// card lies still. This sketch polls with WUPA (PICC_WakeupA), which HALTed cards answer too, halts
// the card after each read, and only reports REMOVED after several polls in a row without it.

#include <SPI.h>
#include <MFRC522.h>

const uint8_t SS_PIN = 10;
const uint8_t RST_PIN = 9;
const unsigned long POLL_MS = 25;
const uint8_t MISSES_FOR_REMOVAL = 4;       // about 4 x (25 ms + poll) = ~150 ms without the card
const unsigned long HEALTH_CHECK_MS = 5000; // the MFRC522 can lock up after a brown-out: re-init it

MFRC522 rfid(SS_PIN, RST_PIN);
byte heldUid[10];
byte heldLen = 0;
uint8_t misses = 0;
unsigned long lastHealthCheck = 0;

bool readerAlive() {
  byte version = rfid.PCD_ReadRegister(MFRC522::VersionReg);
  return version != 0x00 && version != 0xFF;
}

bool readCard(byte *uid, byte &len) {
  byte atqa[2];
  byte atqaSize = sizeof(atqa);
  MFRC522::StatusCode status = rfid.PICC_WakeupA(atqa, &atqaSize);
  if (status != MFRC522::STATUS_OK && status != MFRC522::STATUS_COLLISION) {
    return false;
  }
  if (!rfid.PICC_ReadCardSerial()) {
    return false;
  }
  len = rfid.uid.size;
  memcpy(uid, rfid.uid.uidByte, len);
  rfid.PICC_HaltA();  // back to HALT: the next WUPA finds it again if it is still there
  return true;
}

void printUid(const byte *uid, byte len) {
  Serial.print(F("UID "));
  for (byte i = 0; i < len; i++) {
    if (uid[i] < 0x10) Serial.print('0');
    Serial.print(uid[i], HEX);
  }
  Serial.println();
}

void setup() {
  Serial.begin(115200);
  SPI.begin();
  rfid.PCD_Init();
  if (!readerAlive()) {
    Serial.println(F("# ERROR MFRC522 not answering: check SDA/SCK/MOSI/MISO/RST wiring and 3.3V"));
  }
  Serial.println(F("READY kikimimi-bridge 1"));
}

void loop() {
  byte uid[10];
  byte len = 0;
  if (readCard(uid, len)) {
    misses = 0;
    if (len != heldLen || memcmp(uid, heldUid, len) != 0) {
      if (heldLen) Serial.println(F("REMOVED"));  // a different tag replaced the held one
      memcpy(heldUid, uid, len);
      heldLen = len;
      printUid(uid, len);
    }
  } else if (heldLen && ++misses >= MISSES_FOR_REMOVAL) {
    Serial.println(F("REMOVED"));
    heldLen = 0;
    misses = 0;
  }

  unsigned long now = millis();
  if (now - lastHealthCheck >= HEALTH_CHECK_MS) {
    lastHealthCheck = now;
    if (!readerAlive()) {
      Serial.println(F("# ERROR MFRC522 stopped answering; re-initialising"));
      rfid.PCD_Init();
    }
  }
  delay(POLL_MS);
}
