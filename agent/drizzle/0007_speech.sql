CREATE TABLE `speech_settings` (
	`id` integer PRIMARY KEY NOT NULL,
	`stt_engine` text,
	`stt_wyoming_host` text,
	`stt_wyoming_port` integer NOT NULL,
	`stt_model` text,
	`stt_language` text,
	`stt_openai_base_url` text,
	`stt_api_key_sealed` text,
	`tts_engine` text,
	`tts_host` text,
	`tts_port` integer NOT NULL,
	`tts_voice` text,
	`updated_at` integer NOT NULL
);
